import { escapeHtml } from '../../platform/html';
import type { MailMessage } from '../mail';

/**
 * A mail whose point is one link: who asked for what (`asked`), the link to act on (`open` before it in the text,
 * `linkText` on it in HTML), then what to know after it, as text and HTML lines. `token` is the credential inside
 * `link`, kept out of every copy but the recipient's.
 */
export function linkMail(mail: {
  to: string;
  name: string;
  link: string;
  token: string;
  subject: string;
  asked: string;
  open: string;
  linkText: string;
  after: { text: string[]; html: string[] };
}): MailMessage {
  return {
    to: mail.to,
    secrets: [mail.token],
    subject: mail.subject,
    text: [`Hi ${mail.name},`, '', `${mail.asked} ${mail.open}`, '', mail.link, '', ...mail.after.text].join(
      '\n',
    ),
    html: [
      `<p>Hi ${escapeHtml(mail.name)},</p>`,
      `<p>${mail.asked}</p>`,
      `<p><a href="${mail.link}">${mail.linkText}</a></p>`,
      ...mail.after.html,
    ].join('\n'),
  };
}
