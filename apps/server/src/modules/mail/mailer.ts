/** One outgoing e-mail. `text` is required so every mail reads well in any client and in the log. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
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
