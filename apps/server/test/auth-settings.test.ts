import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../src/db/schema';
import { bearer, MemoryMailer, randomIp, registerUser, uniqueEmail, type Registered } from './auth-helpers';
import { multipartForm } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

/*
 * The settings page's calls: name, e-mail change through a signed link mailed to the new address (the old one is
 * told), password change that ends every other session, profile picture through the image pipeline. Bad input gets
 * { message, code } with its status and writes nothing.
 */

let ctx: TestContext;
let mailer: MemoryMailer;
let clock = new Date('2025-03-01T10:00:00Z');
let png: Buffer;

beforeAll(async () => {
  mailer = new MemoryMailer();
  ctx = await createTestApp({ services: { mailer, clock: () => clock } });
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#ff5a36' } })
    .png()
    .toBuffer();
});
afterAll(() => ctx.close());

const inject = (
  method: 'PATCH' | 'POST' | 'PUT' | 'DELETE' | 'GET',
  url: string,
  token?: string,
  payload?: object,
) =>
  ctx.app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    remoteAddress: randomIp(),
    ...(payload ? { payload } : {}),
  });

async function row(id: string) {
  const [found] = await ctx.database.db
    .select({
      name: users.name,
      email: users.email,
      passwordHash: users.passwordHash,
      image: users.profileImage,
    })
    .from(users)
    .where(eq(users.id, id));
  return found!;
}

/** The token and address of the link in a confirmation mail. */
function linkOf(text: string) {
  const link = /https?:\/\/\S+\/settings\/email\?\S+/.exec(text)![0];
  const query = new URL(link).searchParams;
  return { link, token: query.get('token')!, email: query.get('email')! };
}

describe('PATCH /api/users/me: the name', () => {
  it('renames the account and answers the user', async () => {
    const account = await registerUser(ctx);
    const res = await inject('PATCH', '/api/users/me', account.token, { name: '  Ada Lovelace ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Name updated', user: { name: 'Ada Lovelace' } });
    expect((await inject('GET', '/api/users/me', account.token)).json().name).toBe('Ada Lovelace');
  });

  it.each([
    [{ name: '' }, 'name: Name is required'],
    [{ name: 'x'.repeat(101) }, 'name: Name must be at most 100 characters'],
    [{}, 'name: Name is required'],
  ])('refuses %o with 400 and keeps the name', async (payload, message) => {
    const account = await registerUser(ctx);
    const res = await inject('PATCH', '/api/users/me', account.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR' });
    expect((await row(account.id)).name).toBe('Test Listener');
  });

  it('asks a guest to sign in', async () => {
    const res = await inject('PATCH', '/api/users/me', undefined, { name: 'Nobody' });
    expect(res.statusCode).toBe(401);
  });
});

describe('e-mail change through a signed link', () => {
  async function requestChange(account: Registered, email: string) {
    const mail = mailer.next(email);
    const res = await inject('POST', '/api/users/me/email', account.token, {
      email,
      password: account.password,
    });
    expect(res.statusCode).toBe(202);
    return { res, mail: await mail };
  }

  it('mails the new address; only the link changes it, and the old address is told', async () => {
    const account = await registerUser(ctx);
    const next = uniqueEmail('moved');
    const { res, mail } = await requestChange(account, next);
    expect(res.json().message).toBe(`We sent a link to ${next}. Your address changes when you open it.`);
    expect((await row(account.id)).email).toBe(account.email);
    const { token, email } = linkOf(mail.text);
    expect(email).toBe(next);
    expect(mail.secrets).toEqual([token]);

    const notice = mailer.next(account.email);
    const confirmed = await inject('POST', '/api/users/email/confirm', undefined, { token, email });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ message: 'Your e-mail address has been changed', email: next });
    expect((await row(account.id)).email).toBe(next);
    expect((await notice).text).toContain(`now ${next}`);
    // Signing in works with the new address only.
    const login = (address: string) =>
      inject('POST', '/api/users/login', undefined, { email: address, password: account.password });
    expect((await login(next)).statusCode).toBe(200);
    expect((await login(account.email)).statusCode).toBe(401);
  });

  it('works once, never after a later change, and not once expired', async () => {
    const account = await registerUser(ctx);
    const first = linkOf((await requestChange(account, uniqueEmail('first'))).mail.text);
    const second = linkOf((await requestChange(account, uniqueEmail('second'))).mail.text);
    expect((await inject('POST', '/api/users/email/confirm', undefined, second)).statusCode).toBe(200);
    // The first link was made for the address the account no longer has.
    const stale = await inject('POST', '/api/users/email/confirm', undefined, first);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().code).toBe('EMAIL_LINK_INVALID');
    expect((await row(account.id)).email).toBe(second.email);

    const third = linkOf((await requestChange(account, uniqueEmail('third'))).mail.text);
    clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000 + 1);
    const expired = await inject('POST', '/api/users/email/confirm', undefined, third);
    expect(expired.statusCode).toBe(400);
    expect((await row(account.id)).email).toBe(second.email);
  });

  it('refuses a forged token, or a genuine one with another address, and writes nothing', async () => {
    const account = await registerUser(ctx);
    const { token, email } = linkOf((await requestChange(account, uniqueEmail('real'))).mail.text);
    const flipped = `${token.slice(0, 5)}${token[5] === 'A' ? 'B' : 'A'}${token.slice(6)}`;
    for (const body of [
      { token: flipped, email },
      { token, email: uniqueEmail('other') },
      { token: 'junk', email },
    ]) {
      const res = await inject('POST', '/api/users/email/confirm', undefined, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('EMAIL_LINK_INVALID');
    }
    expect((await row(account.id)).email).toBe(account.email);
  });

  it('needs the current password, refuses a taken or unchanged address, and validates the input', async () => {
    const account = await registerUser(ctx);
    const other = await registerUser(ctx);
    const before = mailer.sent.length;
    const post = (payload: object) => inject('POST', '/api/users/me/email', account.token, payload);
    const wrong = await post({ email: uniqueEmail(), password: 'not my password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({
      message: 'Your current password is not correct',
      code: 'INVALID_PASSWORD',
    });
    expect((await post({ email: uniqueEmail() })).json()).toEqual({
      message: 'password: Your current password is required',
      code: 'VALIDATION_ERROR',
    });
    const taken = await post({ email: other.email, password: account.password });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_TAKEN');
    expect((await post({ email: account.email, password: account.password })).statusCode).toBe(400);
    const invalid = await post({ email: 'not-an-address', password: account.password });
    expect(invalid.json()).toEqual({
      message: 'email: Please enter a valid email address',
      code: 'VALIDATION_ERROR',
    });
    expect(mailer.sent.length).toBe(before);
    expect((await row(account.id)).email).toBe(account.email);
  });

  it('limits requests per account (each sends a mail)', async () => {
    const account = await registerUser(ctx);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const res = await inject('POST', '/api/users/me/email', account.token, {
        email: uniqueEmail('flood'),
        password: account.password,
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.headers['retry-after']).toBeDefined();
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('refuses the new address if it was taken meanwhile', async () => {
    const account = await registerUser(ctx);
    const wanted = uniqueEmail('race');
    const link = linkOf((await requestChange(account, wanted)).mail.text);
    await registerUser(ctx, { email: wanted });
    const res = await inject('POST', '/api/users/email/confirm', undefined, link);
    expect(res.statusCode).toBe(409);
    expect((await row(account.id)).email).toBe(account.email);
  });
});

describe('PUT /api/users/me/password', () => {
  it('needs the current password, then ends every other session but this one', async () => {
    const account = await registerUser(ctx);
    const login = () =>
      inject('POST', '/api/users/login', undefined, { email: account.email, password: account.password });
    const elsewhere = (await login()).json<{ token: string }>().token;
    const another = (await login()).json<{ token: string }>().token;
    const res = await inject('PUT', '/api/users/me/password', account.token, {
      currentPassword: account.password,
      newPassword: 'a brand new passphrase',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Password changed. Signed out of 2 other sessions.',
      endedSessions: 2,
    });
    expect((await inject('GET', '/api/users/me', account.token)).statusCode).toBe(200);
    for (const token of [elsewhere, another]) {
      expect((await inject('GET', '/api/users/me', token)).statusCode).toBe(401);
    }
    expect((await login()).statusCode).toBe(401);
    const fresh = await inject('POST', '/api/users/login', undefined, {
      email: account.email,
      password: 'a brand new passphrase',
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('refuses a wrong current password (403, keeping the session), a short new one, and writes nothing', async () => {
    const account = await registerUser(ctx);
    const { passwordHash } = await row(account.id);
    const put = (payload: object) => inject('PUT', '/api/users/me/password', account.token, payload);
    const wrong = await put({ currentPassword: 'nope nope nope', newPassword: 'long enough here' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('INVALID_PASSWORD');
    const short = await put({ currentPassword: account.password, newPassword: 'short' });
    expect(short.json()).toEqual({
      message: 'newPassword: Password must be at least 8 characters',
      code: 'VALIDATION_ERROR',
    });
    expect((await put({ newPassword: 'long enough here' })).statusCode).toBe(400);
    expect((await row(account.id)).passwordHash).toBe(passwordHash);
    expect((await inject('GET', '/api/users/me', account.token)).statusCode).toBe(200);
  });

  it('limits attempts per account: a stolen session is no password oracle', async () => {
    const account = await registerUser(ctx);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const res = await inject('PUT', '/api/users/me/password', account.token, {
        currentPassword: `guess ${attempt}`,
        newPassword: 'long enough here',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
  });

  it('lets a social account set its first password only with a fresh sign-in', async () => {
    const account = await registerUser(ctx);
    const db = ctx.database.db;
    await db.update(users).set({ passwordHash: null }).where(eq(users.id, account.id));
    const signedInAgo = async (ms: number) => {
      await db
        .update(sessions)
        .set({ createdAt: new Date(clock.getTime() - ms) })
        .where(eq(sessions.userId, account.id));
      ctx.app.services.sessionCache.forgetUser(account.id);
    };
    const put = () =>
      inject('PUT', '/api/users/me/password', account.token, { newPassword: 'first password!' });
    await signedInAgo(11 * 60 * 1000);
    const stale = await put();
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual({
      message: 'Please sign in again to set a password',
      code: 'REAUTHENTICATION_REQUIRED',
    });
    expect((await row(account.id)).passwordHash).toBeNull();
    await signedInAgo(60 * 1000);
    expect((await put()).statusCode).toBe(200);
    expect((await row(account.id)).passwordHash).not.toBeNull();
  });
});

describe('PUT /api/users/me/avatar', () => {
  const upload = (token: string, fields: Parameters<typeof multipartForm>[0]) =>
    ctx.app.inject({
      method: 'PUT',
      url: '/api/users/me/avatar',
      headers: bearer(token),
      payload: multipartForm(fields),
    });

  it('stores the picture through the image pipeline and serves it; a new one replaces it; removal clears it', async () => {
    const account = await registerUser(ctx);
    const res = await upload(account.token, { image: { file: png, name: 'me.png', type: 'image/png' } });
    expect(res.statusCode).toBe(200);
    const first = res.json().user.profileImage as string;
    expect(first).toMatch(/^\/api\/media\/images\/avatar\/[0-9a-f]{16}\/cover-640\.webp$/);
    const image = await ctx.app.inject({ method: 'GET', url: first });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect((await inject('GET', '/api/users/me', account.token)).json().profileImage).toBe(first);

    const again = await upload(account.token, { image: { file: png, name: 'me2.png', type: 'image/png' } });
    const second = again.json().user.profileImage as string;
    expect(second).not.toBe(first);
    expect((await ctx.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);

    const removed = await inject('DELETE', '/api/users/me/avatar', account.token);
    expect(removed.json().user.profileImage).toBeNull();
    expect((await ctx.app.inject({ method: 'GET', url: second })).statusCode).toBe(404);
  });

  it('refuses a file that is not an image (415), no file (400), and keeps the picture', async () => {
    const account = await registerUser(ctx);
    const text = await upload(account.token, {
      image: { file: Buffer.from('just some text, not a picture'), name: 'me.png', type: 'image/png' },
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const none = await upload(account.token, { note: 'no file' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ message: 'image: an image file is required', code: 'BAD_REQUEST' });
    expect((await row(account.id)).image).toBeNull();
  });

  it('refuses an image over the upload limit with 413 while it streams in', async () => {
    const limited = await createTestApp({ env: { UPLOAD_MAX_IMAGE_MB: '1' } });
    try {
      const account = await registerUser(limited);
      const big = Buffer.concat([png, Buffer.alloc(1024 * 1024 + 10)]);
      const res = await limited.app.inject({
        method: 'PUT',
        url: '/api/users/me/avatar',
        headers: bearer(account.token),
        payload: multipartForm({ image: { file: big, name: 'big.png', type: 'image/png' } }),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('FILE_TOO_LARGE');
    } finally {
      await limited.close();
    }
  });
});
