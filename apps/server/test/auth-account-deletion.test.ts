import { readdirSync } from 'node:fs';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  albums,
  artists,
  genres,
  likes,
  mailOutbox,
  oauthAccounts,
  orders,
  passwordResets,
  paymentEvents,
  payments,
  playlists,
  purchases,
  sessions,
  songs,
  subscriptions,
  userPreferredGenres,
  users,
} from '../src/db/schema';
import { SESSION_TTL_MS } from '../src/platform/auth';
import { hashToken, newOpaqueToken } from '../src/platform/session-token';
import { bearer, countRows, randomIp, registerUser, uniqueEmail } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

/** Mail is sent after the reply; give a loaded machine time. */
const POLL = { timeout: 15_000 };

let ctx: TestContext;
let catalogue: { artistId: string; albumId: string; songId: string; genreId: string };

beforeAll(async () => {
  ctx = await createTestApp(); // The default development outbox mailer: mail_outbox rows are personal data too.
  const db = ctx.database.db;
  const [genre] = await db.insert(genres).values({ name: 'Soul', slug: 'soul' }).returning();
  const [artist] = await db.insert(artists).values({ name: 'Otis' }).returning();
  const [album] = await db
    .insert(albums)
    .values({ artistId: artist!.id, title: 'Dock', price: 900 })
    .returning();
  const [song] = await db
    .insert(songs)
    .values({ artistId: artist!.id, albumId: album!.id, title: 'Bay', singer: 'Otis' })
    .returning();
  catalogue = { artistId: artist!.id, albumId: album!.id, songId: song!.id, genreId: genre!.id };
});
afterAll(() => ctx.close());

const deleteMe = (token: string, payload?: object) =>
  ctx.app.inject({
    method: 'DELETE',
    url: '/api/users/me',
    headers: bearer(token),
    ...(payload ? { payload } : {}),
  });

/** An account created through social sign-in (no password) with a session opened `ageMs` ago. */
async function socialAccount(ageMs: number) {
  const db = ctx.database.db;
  const [user] = await db
    .insert(users)
    .values({ name: 'Social', email: uniqueEmail('social'), emailVerified: true })
    .returning();
  await db.insert(oauthAccounts).values({ provider: 'google', subject: `sub-${user!.id}`, userId: user!.id });
  const token = newOpaqueToken();
  const openedAt = new Date(Date.now() - ageMs);
  await db.insert(sessions).values({
    userId: user!.id,
    tokenHash: hashToken(token),
    createdAt: openedAt,
    lastSeenAt: new Date(),
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return { id: user!.id, token };
}

describe('DELETE /api/users/me', () => {
  it('deletes the account and its personal data; orders and payments stay, anonymised', async () => {
    const account = await registerUser(ctx);
    const db = ctx.database.db;
    const userId = account.id;
    await ctx.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      payload: { email: account.email },
      remoteAddress: randomIp(),
    });
    await db.insert(likes).values({ userId, songId: catalogue.songId });
    await db.insert(playlists).values({ userId, name: 'Mine' });
    await db.insert(userPreferredGenres).values({ userId, genreId: catalogue.genreId });
    await db.insert(oauthAccounts).values({ provider: 'google', subject: `sub-${userId}`, userId });
    const [order] = await db
      .insert(orders)
      .values({
        userId,
        itemType: 'album',
        albumId: catalogue.albumId,
        itemTitle: 'Dock',
        amount: 900,
        currency: 'USD',
        gateway: 'sandbox',
        status: 'paid',
        externalId: `ext-${userId}`,
      })
      .returning();
    await db.insert(payments).values({
      orderId: order!.id,
      gateway: 'sandbox',
      externalId: `pay-${userId}`,
      amount: 900,
      currency: 'USD',
      status: 'succeeded',
      raw: { id: `pay-${userId}`, metadata: { user_id: userId }, receipt_email: account.email },
    });
    // Gateway events as they were stored: one about the order, one the ledger could not match to any order.
    const events = await db
      .insert(paymentEvents)
      .values([
        {
          gateway: 'stripe',
          eventId: `evt_order_${userId}`,
          type: 'payment_intent.succeeded',
          orderId: order!.id,
          payload: {
            id: `evt_order_${userId}`,
            data: {
              object: {
                id: 'pi_kept_for_accounting',
                amount: 900,
                currency: 'usd',
                metadata: { user_id: userId, order_id: order!.id },
                receipt_email: account.email.toUpperCase(),
                billing_details: { name: 'Test Listener', address: { city: 'Lisbon' } },
                description: `Album for ${account.email}`,
              },
            },
          },
        },
        {
          gateway: 'stripe',
          eventId: `evt_loose_${userId}`,
          type: 'customer.updated',
          payload: { data: { object: { id: 'cus_x', email: account.email, metadata: { user_id: userId } } } },
        },
      ])
      .returning({ id: paymentEvents.id });
    await db.insert(purchases).values({ userId, albumId: catalogue.albumId, orderId: order!.id });
    await db
      .insert(subscriptions)
      .values({ userId, artistId: catalogue.artistId, gateway: 'sandbox', status: 'active' });
    const me = (
      await ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(account.token) })
    ).json();
    expect(me).toMatchObject({
      purchasedAlbums: [catalogue.albumId],
      purchaseHistory: [order!.id],
      likedsong: [catalogue.songId],
      preferredGenres: ['Soul'],
    });
    await expect
      .poll(
        async () => (await db.select().from(mailOutbox).where(eq(mailOutbox.to, account.email))).length,
        POLL,
      )
      .toBe(1);
    const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.to, account.email));
    const outboxFiles = () =>
      readdirSync(ctx.config.mail.outboxDir).filter((name) => name.includes(mail!.id));
    await expect.poll(outboxFiles, POLL).toHaveLength(1);

    const res = await deleteMe(account.token, { password: account.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your account and personal data have been deleted' });
    expect(res.cookies.find((c) => c.name === 'token')?.value).toBe('');

    for (const table of [
      sessions,
      likes,
      playlists,
      userPreferredGenres,
      purchases,
      subscriptions,
      oauthAccounts,
      passwordResets,
    ]) {
      const rows = await db.select().from(table).where(eq(table.userId, userId));
      expect(rows).toHaveLength(0);
    }
    expect(await db.select().from(users).where(eq(users.id, userId))).toHaveLength(0);
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.to, account.email))).toHaveLength(0);
    // The outbox's .eml file of that mail went with its row.
    expect(outboxFiles()).toEqual([]);
    const [kept] = await db.select().from(orders).where(eq(orders.id, order!.id));
    expect(kept).toMatchObject({ userId: null, amount: 900, status: 'paid', externalId: `ext-${userId}` });
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, order!.id));
    expect(payment).toMatchObject({ amount: 900, externalId: `pay-${userId}`, raw: { receipt_email: null } });
    // What stays of the account's payments names neither its id nor its e-mail; amounts and gateway ids stay.
    const stored = await db
      .select({ payload: paymentEvents.payload })
      .from(paymentEvents)
      .where(
        inArray(
          paymentEvents.id,
          events.map((event) => event.id),
        ),
      );
    const text = JSON.stringify([stored, payment!.raw]).toLowerCase();
    expect(text).not.toContain(userId);
    expect(text).not.toContain(account.email.toLowerCase());
    expect(text).not.toContain('lisbon');
    expect(stored[0]!.payload).toMatchObject({
      data: { object: { id: 'pi_kept_for_accounting', amount: 900, billing_details: null } },
    });
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(account.token) }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses a wrong password with 403 "Invalid password" and deletes nothing', async () => {
    const account = await registerUser(ctx);
    const before = await countRows(ctx, users);
    const res = await deleteMe(account.token, { password: 'not my password' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Invalid password', code: 'INVALID_PASSWORD' });
    expect(await countRows(ctx, users)).toBe(before);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(account.token) }))
        .statusCode,
    ).toBe(200);
  });

  it('limits password guesses: 5 wrong ones in 15 minutes, then 429 with Retry-After, even in parallel', async () => {
    const account = await registerUser(ctx);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => deleteMe(account.token, { password: 'a wrong guess' })),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses.filter((status) => status === 403)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    const limited = answers.find((res) => res.statusCode === 429)!;
    expect(limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many attempts/),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password waits now; the account is still there.
    const right = await deleteMe(account.token, { password: account.password });
    expect(right.statusCode).toBe(429);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(account.token) }))
        .statusCode,
    ).toBe(200);
  });

  it('requires the password of an account that has one', async () => {
    const account = await registerUser(ctx);
    const before = await countRows(ctx, users);
    for (const payload of [undefined, {}]) {
      const res = await deleteMe(account.token, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'password: Password is required', code: 'VALIDATION_ERROR' });
    }
    expect(await countRows(ctx, users)).toBe(before);
  });

  it('lets a social account delete itself within 10 minutes of signing in', async () => {
    const social = await socialAccount(60 * 1000);
    const res = await deleteMe(social.token);
    expect(res.statusCode).toBe(200);
    expect(await ctx.database.db.select().from(users).where(eq(users.id, social.id))).toHaveLength(0);
    expect(
      await ctx.database.db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, social.id)),
    ).toHaveLength(0);
  });

  it('asks a social account with an older session to sign in again (403) and deletes nothing', async () => {
    const social = await socialAccount(11 * 60 * 1000);
    const res = await deleteMe(social.token, { password: 'anything at all' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'Please sign in again to delete your account',
      code: 'REAUTHENTICATION_REQUIRED',
    });
    expect(await ctx.database.db.select().from(users).where(eq(users.id, social.id))).toHaveLength(1);
  });

  it('answers a guest with 401 and refuses a cross-site cookie request with 403', async () => {
    const guest = await ctx.app.inject({ method: 'DELETE', url: '/api/users/me' });
    expect(guest.statusCode).toBe(401);
    const account = await registerUser(ctx);
    const csrf = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      cookies: { token: account.token },
      headers: { origin: 'https://evil.example' },
      payload: { password: account.password },
    });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json().code).toBe('CSRF');
    expect(await ctx.database.db.select().from(users).where(eq(users.id, account.id))).toHaveLength(1);
  });
});
