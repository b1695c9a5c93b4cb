import type { MailMessage } from '../mail';
import { linkMail } from './link-mail';

/** The reset mail; `token` is the credential inside `link`, kept out of every copy but the recipient's. */
export function passwordResetMail(to: string, name: string, link: string, token: string): MailMessage {
  return linkMail({
    to,
    name,
    link,
    token,
    subject: 'Reset your Backbeat password',
    asked: 'Someone asked to reset the password of your Backbeat account.',
    open: 'To choose a new one, open this link:',
    linkText: 'Choose a new password',
    after: {
      text: [
        'The link works once and expires in 1 hour. If you did not ask for it, ignore this mail: your password stays',
        'unchanged.',
      ],
      html: [
        '<p>The link works once and expires in 1 hour. If you did not ask for it, ignore this mail: your password',
        'stays unchanged.</p>',
      ],
    },
  });
}
