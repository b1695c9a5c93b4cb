/** One outgoing e-mail. `text` is required so every mail reads well in any client and in the log. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * Credentials in the mail (a reset link's token): delivered to the recipient, never stored or logged. The
   * outbox keeps the mail with each replaced by `[REDACTED]`.
   */
  secrets?: readonly string[];
}

/** The mail text with its credentials replaced, as it may be stored or shown to anyone but the recipient. */
export function redactedText(message: MailMessage): string {
  let text = message.text;
  for (const secret of message.secrets ?? []) if (secret) text = text.split(secret).join('[REDACTED]');
  return text;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** The slice of a pino/Fastify logger the mailers use. */
export interface MailLog {
  info(entry: object, message: string): void;
  error(entry: object, message: string): void;
}

export const silentMailLog: MailLog = { info: () => undefined, error: () => undefined };
