import { escapeHtml } from '../../platform/html';
import type { MailMessage } from '../mail';
import { linkMail } from './link-mail';

/** To the new address: the link that makes it the account's e-mail; `token` is kept out of every other copy. */
export function confirmEmailChangeMail(to: string, name: string, link: string, token: string): MailMessage {
  return linkMail({
    to,
    name,
    link,
    token,
    subject: 'Confirm your new Backbeat e-mail address',
    asked: 'Someone asked to use this address for a Backbeat account.',
    open: 'To confirm it, open this link:',
    linkText: 'Confirm this e-mail address',
    after: {
      text: [
        'The link expires in 24 hours. Until it is used, the account keeps its current address. If you did not',
        'ask for this, ignore this mail.',
      ],
      html: [
        '<p>The link expires in 24 hours. Until it is used, the account keeps its current address. If you did not',
        'ask for this, ignore this mail.</p>',
      ],
    },
  });
}

/** To the old address, once the change is done: so a change the owner did not make does not go unnoticed. */
export function emailChangedNoticeMail(to: string, name: string, newEmail: string): MailMessage {
  return {
    to,
    subject: 'Your Backbeat e-mail address was changed',
    text: [
      `Hi ${name},`,
      '',
      `The e-mail address of your Backbeat account is now ${newEmail}. Mail about the account goes there from now`,
      'on.',
      '',
      'If you did not make this change, reply to this mail or write to support at once: someone may have your',
      'password.',
    ].join('\n'),
    html: [
      `<p>Hi ${escapeHtml(name)},</p>`,
      `<p>The e-mail address of your Backbeat account is now <strong>${escapeHtml(newEmail)}</strong>. Mail about the`,
      'account goes there from now on.</p>',
      '<p>If you did not make this change, reply to this mail or write to support at once: someone may have your',
      'password.</p>',
    ].join('\n'),
  };
}
