import type { MailMessage } from '../mail';

/** The reset mail; `token` is the credential inside `link`, kept out of every copy but the recipient's. */
export function passwordResetMail(to: string, name: string, link: string, token: string): MailMessage {
  const escapedName = name.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    to,
    secrets: [token],
    subject: 'Reset your Backbeat password',
    text: [
      `Hi ${name},`,
      '',
      'Someone asked to reset the password of your Backbeat account. To choose a new one, open this link:',
      '',
      link,
      '',
      'The link works once and expires in 1 hour. If you did not ask for it, ignore this mail: your password stays',
      'unchanged.',
    ].join('\n'),
    html: [
      `<p>Hi ${escapedName},</p>`,
      '<p>Someone asked to reset the password of your Backbeat account.</p>',
      `<p><a href="${link}">Choose a new password</a></p>`,
      '<p>The link works once and expires in 1 hour. If you did not ask for it, ignore this mail: your password',
      'stays unchanged.</p>',
    ].join('\n'),
  };
}
