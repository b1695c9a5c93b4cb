import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/** Undoes the quoted-printable transfer encoding nodemailer uses for long lines. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The mails the server wrote to DATA_DIR/outbox (.eml files, no SMTP_URL in e2e), newest last. */
export function outboxMails(): string[] {
  const dir = path.join(inject('dataDir'), 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => decodeQuotedPrintable(readFileSync(path.join(dir, name), 'utf8')));
}

/** Waits for the newest password-reset mail to `email` and returns the path of its link (/reset-password/...). */
export async function resetLinkFor(email: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mail = outboxMails()
      .filter((text) => new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'mi').test(text))
      .at(-1);
    const link = mail?.match(/https?:\/\/[^\s"<>]+(\/reset-password\/[A-Za-z0-9_-]+)/);
    if (link?.[1]) return link[1];
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no reset mail for ${email} in the outbox`);
}
