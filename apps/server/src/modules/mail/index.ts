import type { Config } from '../../config';
import type { AppDb } from '../../db/client';
import { MailOutboxRepository } from './mail-outbox.repository';
import { OutboxMailer } from './outbox.mailer';
import { SmtpMailer } from './smtp.mailer';
import type { MailLog, Mailer } from './mailer';

export type { MailLog, MailMessage, Mailer } from './mailer';
export { MailOutboxRepository } from './mail-outbox.repository';
export { OutboxMailer, removeOutboxFiles } from './outbox.mailer';
export { SmtpMailer } from './smtp.mailer';

/** SMTP when SMTP_URL is set, else the development outbox. */
export function createMailer(config: Config, db: AppDb): Mailer {
  if (config.mail.smtpUrl) return new SmtpMailer(config.mail.smtpUrl, config.mail.from);
  return new OutboxMailer({
    outboxDir: config.mail.outboxDir,
    from: config.mail.from,
    repository: new MailOutboxRepository(db),
  });
}

/** The outbox logs each mail through the app's logger, which exists only once Fastify is built. */
export function attachMailLogger(mailer: Mailer, log: MailLog) {
  if (mailer instanceof OutboxMailer) mailer.useLogger(log);
}
