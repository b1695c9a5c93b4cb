import type { MailMessage } from '../mail';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** To the new address: the link that makes it the account's e-mail; `token` is kept out of every other copy. */
export function confirmEmailChangeMail(to: string, name: string, link: string, token: string): MailMessage {
  return {
    to,
    secrets: [token],
    subject: 'Confirm your new Backbeat e-mail address',
    text: [
      `Hi ${name},`,
      '',
      'Someone asked to use this address for a Backbeat account. To confirm it, open this link:',
      '',
      link,
      '',
      'The link expires in 24 hours. Until it is used, the account keeps its current address. If you did not',
      'ask for this, ignore this mail.',
    ].join('\n'),
    html: [
      `<p>Hi ${escape(name)},</p>`,
      '<p>Someone asked to use this address for a Backbeat account.</p>',
      `<p><a href="${link}">Confirm this e-mail address</a></p>`,
      '<p>The link expires in 24 hours. Until it is used, the account keeps its current address. If you did not',
      'ask for this, ignore this mail.</p>',
    ].join('\n'),
  };
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
      `<p>Hi ${escape(name)},</p>`,
      `<p>The e-mail address of your Backbeat account is now <strong>${escape(newEmail)}</strong>. Mail about the`,
      'account goes there from now on.</p>',
      '<p>If you did not make this change, reply to this mail or write to support at once: someone may have your',
      'password.</p>',
    ].join('\n'),
  };
}
