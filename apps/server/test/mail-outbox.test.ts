import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../src/db/schema';
import { MailOutboxRepository, OutboxMailer } from '../src/modules/mail';
import { randomIp, registerUser } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

/** Mail is sent after the reply; give a loaded machine time. */
const POLL = { timeout: 15_000 };

/** Undoes the quoted-printable transfer encoding nodemailer uses for long lines. */
const decodeQuotedPrintable = (text: string) =>
  text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

let ctx: TestContext;
/** Everything the app logged, one JSON line per entry. */
const logLines: string[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  ctx = await createTestApp({ logger: pino({ level: 'trace' }, sink) });
});
afterAll(() => ctx.close());

describe('development outbox (no SMTP_URL)', () => {
  it('is the default mailer', () => {
    expect(ctx.app.services.mailer).toBeInstanceOf(OutboxMailer);
  });

  it('parks the reset mail as an .eml file (the link readable there only) and a mail_outbox row', async () => {
    const account = await registerUser(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      payload: { email: account.email },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(200);
    await expect
      .poll(
        async () =>
          (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, account.email))).length,
        POLL,
      )
      .toBe(1);
    const [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, account.email));
    expect(row?.subject).toBe('Reset your Backbeat password');

    const outbox = ctx.config.mail.outboxDir;
    const named = () => readdirSync(outbox).filter((f) => f.endsWith(`${row!.id}.eml`));
    await expect.poll(() => named().length, POLL).toBe(1);
    const file = named()[0]!;
    expect(file).toMatch(/\.eml$/);
    // The development mailbox holds live links: only the server's account may read it.
    expect(statSync(outbox).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(outbox, file)).mode & 0o777).toBe(0o600);
    const eml = decodeQuotedPrintable(readFileSync(path.join(outbox, file), 'utf8'));
    expect(eml).toContain(`To: ${account.email}`);
    expect(eml).toContain('Subject: Reset your Backbeat password');
    const token = eml.match(/http:\/\/localhost:3000\/reset-password\/([A-Za-z0-9_-]{43})/)?.[1];
    expect(token).toBeDefined();

    // The token is a credential: the database row and the log hold the mail without it.
    expect(row!.text).not.toContain(token);
    expect(row!.text).toContain('http://localhost:3000/reset-password/[REDACTED]');
    const log = logLines.join('');
    expect(log).toContain('mail written to the outbox');
    expect(log).not.toContain(token);
  });

  it('logs each mail without its text (mail bodies may carry credentials)', async () => {
    const lines: Array<{ entry: object; message: string }> = [];
    const mailer = new OutboxMailer({
      outboxDir: path.join(ctx.dataDir, 'outbox-unit'),
      from: 'Backbeat <no-reply@backbeat.local>',
      repository: new MailOutboxRepository(ctx.database.db),
    });
    mailer.useLogger({ info: (entry, message) => lines.push({ entry, message }), error: () => undefined });
    await mailer.send({ to: 'dev@example.com', subject: 'Hello', text: 'Open http://localhost:3000/x' });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.message).toContain('outbox');
    expect(lines[0]!.entry).toMatchObject({ mail: { to: 'dev@example.com', subject: 'Hello' } });
    expect(JSON.stringify(lines[0]!.entry)).not.toContain('Open http://localhost:3000/x');
    expect(readdirSync(path.join(ctx.dataDir, 'outbox-unit'))).toHaveLength(1);
  });
});
