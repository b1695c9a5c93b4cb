import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../src/db/schema';
import { SmtpMailer } from '../src/modules/mail';
import { countRows, randomIp, registerUser } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let ctx: TestContext;
let smtp: SMTPServer;
let inbox: Received[] = [];
let waiters: Array<(mail: Received) => void> = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        inbox.push(mail);
        waiters.forEach((resolve) => resolve(mail));
        waiters = [];
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  ctx = await createTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Backbeat <no-reply@backbeat.test>' },
  });
});
afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const nextMail = () =>
  new Promise<Received>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no mail reached the SMTP server')), 10_000);
    waiters.push((mail) => {
      clearTimeout(timer);
      resolve(mail);
    });
  });

/** Undoes quoted-printable soft line breaks and escapes, enough to read a link. */
const decodeQuotedPrintable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe('SMTP delivery (SMTP_URL set)', () => {
  it('uses the SMTP mailer', () => {
    expect(ctx.app.services.mailer).toBeInstanceOf(SmtpMailer);
  });

  it('delivers the reset mail to a real SMTP server; its link resets the password', async () => {
    inbox = [];
    const account = await registerUser(ctx);
    const arrival = nextMail();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      payload: { email: account.email },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(200);
    const mail = await arrival;
    expect(mail.from).toBe('no-reply@backbeat.test');
    expect(mail.to).toEqual([account.email]);
    const message = decodeQuotedPrintable(mail.raw);
    expect(message).toMatch(/^Subject: Reset your Backbeat password$/m);
    const link = /http:\/\/localhost:3000\/reset-password\/([A-Za-z0-9_-]+)/.exec(message);
    expect(link).not.toBeNull();
    expect(await countRows(ctx, mailOutbox)).toBe(0); // Delivered, not parked in the outbox.

    const reset = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/reset-password/${link![1]}`,
      payload: { password: 'reset through smtp' },
    });
    expect(reset.json()).toEqual({ message: 'Password has been reset. Please log in.' });
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: account.email, password: 'reset through smtp' },
      remoteAddress: randomIp(),
    });
    expect(login.statusCode).toBe(200);
  });

  it('rejects when the SMTP server is unreachable', async () => {
    const unreachable = new SmtpMailer('smtp://127.0.0.1:1', 'Backbeat <no-reply@backbeat.test>');
    await expect(unreachable.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow();
    unreachable.close();
  });
});
