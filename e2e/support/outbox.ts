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

/** Waits for the newest mail to `email` holding a link of this site matching `path`, and returns its path. */
export async function mailedLink(email: string, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const link = new RegExp(`https?://[^\\s"<>/]+(${pattern.source})`);
  while (Date.now() < deadline) {
    const mail = outboxMails()
      .filter((text) => new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'mi').test(text))
      .at(-1);
    const found = mail?.match(link);
    if (found?.[1]) return found[1].replace(/&amp;/g, '&');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail for ${email} with a link like ${pattern} in the outbox`);
}

/** Waits for the newest password-reset mail to `email` and returns the path of its link (/reset-password/...). */
export function resetLinkFor(email: string, timeoutMs = 10_000): Promise<string> {
  return mailedLink(email, /\/reset-password\/[A-Za-z0-9_-]+/, timeoutMs);
}
