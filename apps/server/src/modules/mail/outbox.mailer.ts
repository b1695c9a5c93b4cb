import { chmod, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { redactedText, type MailLog, type MailMessage, type Mailer } from './mailer';
import type { MailOutboxRepository } from './mail-outbox.repository';

/**
 * Development delivery when no SMTP_URL is set (production refuses to start without it): each mail becomes an .eml
 * file in the outbox folder (owner-only; opens in any mail client, so a developer can follow a reset link), a
 * `mail_outbox` row with the mail's credentials redacted, and a log line naming the file, never the text.
 */
export class OutboxMailer implements Mailer {
  // nodemailer's stream transport only renders the RFC 5322 message; nothing leaves the machine.
  private readonly renderer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });

  constructor(
    private readonly options: {
      outboxDir: string;
      from: string;
      repository: MailOutboxRepository;
      log?: MailLog;
    },
  ) {}

  /** The app's logger is only known once Fastify is built; until then mail is logged nowhere. */
  useLogger(log: MailLog) {
    this.options.log = log;
  }

  async send({ secrets, ...message }: MailMessage): Promise<void> {
    const row = await this.options.repository.insert({
      to: message.to,
      subject: message.subject,
      text: redactedText({ ...message, secrets }),
    });
    const rendered = await this.renderer.sendMail({ from: this.options.from, ...message });
    // The mailbox of the development server: only its owner may read it.
    await mkdir(this.options.outboxDir, { recursive: true, mode: 0o700 });
    await chmod(this.options.outboxDir, 0o700);
    const stamp = row.createdAt.toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.options.outboxDir, outboxFileName(stamp, row.id));
    // Written aside and renamed, so a reader never sees a half-written mail.
    await writeFile(`${file}.partial`, rendered.message as Buffer, { mode: 0o600 });
    await rename(`${file}.partial`, file);
    this.options.log?.info(
      { mail: { to: message.to, subject: message.subject, file } },
      'mail written to the outbox (open the file to read it; set SMTP_URL to deliver it)',
    );
  }
}

/** `<time>-<mail_outbox id>.eml`: the row's id names the file, so an account's files can be found again. */
const outboxFileName = (stamp: string, id: string) => `${stamp}-${id}.eml`;

/**
 * Removes the outbox files of these `mail_outbox` rows (a deleted account's mail), a half-written one included.
 * A folder that does not exist (SMTP delivery, nothing sent yet) holds none.
 */
export async function removeOutboxFiles(outboxDir: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const names = await readdir(outboxDir).catch(() => [] as string[]);
  const ours = names.filter((name) =>
    ids.some((id) => name.endsWith(`-${id}.eml`) || name.endsWith(`-${id}.eml.partial`)),
  );
  await Promise.all(ours.map((name) => rm(path.join(outboxDir, name), { force: true })));
}
