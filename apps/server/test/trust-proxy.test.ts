import { afterEach, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { countRows, randomIp, uniqueEmail } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

/** What `inject` uses as the connecting client: the address a proxy would have. */
const CLIENT = '127.0.0.1';
const madeUpAddress = (i: number) => `203.0.113.${i + 1}`;

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

const register = (app: TestContext['app'], headers: Record<string, string>, remoteAddress = CLIENT) =>
  app.inject({
    method: 'POST',
    url: '/api/users/register',
    payload: { name: 'Proxy Test', email: uniqueEmail('proxy'), password: 'a long password' },
    headers,
    remoteAddress,
  });

describe('registration limit per client address (20 an hour) behind X-Forwarded-For', () => {
  it('ignores made-up X-Forwarded-For addresses when TRUST_PROXY is unset, in production too', async () => {
    ctx = await createTestApp({ env: { NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:2525' } });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      statuses.push((await register(ctx.app, { 'x-forwarded-for': madeUpAddress(i) })).statusCode);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(201));
    expect(statuses.slice(20)).toEqual(Array(5).fill(429));
    expect(await countRows(ctx, users)).toBe(20);
    const refused = await register(ctx.app, { 'x-forwarded-for': madeUpAddress(99) });
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('honours the forwarded address from a proxy named in TRUST_PROXY, and only from it', async () => {
    ctx = await createTestApp({ env: { TRUST_PROXY: `${CLIENT},10.0.0.0/8` } });
    for (let i = 0; i < 25; i++) {
      expect((await register(ctx.app, { 'x-forwarded-for': madeUpAddress(i) })).statusCode).toBe(201);
    }
    // The limit now applies to the forwarded client: one address behind the proxy still gets 20.
    const behindProxy = { 'x-forwarded-for': '198.51.100.7' };
    for (let i = 0; i < 20; i++) expect((await register(ctx.app, behindProxy)).statusCode).toBe(201);
    expect((await register(ctx.app, behindProxy)).statusCode).toBe(429);
    // A client that is not a trusted proxy cannot borrow a fresh address by sending the header.
    const stranger = randomIp();
    for (let i = 0; i < 20; i++) {
      const res = await register(ctx.app, { 'x-forwarded-for': madeUpAddress(i) }, stranger);
      expect(res.statusCode).toBe(201);
    }
    expect((await register(ctx.app, { 'x-forwarded-for': madeUpAddress(50) }, stranger)).statusCode).toBe(
      429,
    );
    // 66 registrations, each an argon2id hash: about 7 s alone, several times that on a busy machine.
  }, 120_000);

  it('with a hop count takes the address that many hops back, not one the client wrote in front', async () => {
    ctx = await createTestApp({ env: { TRUST_PROXY: '1' } });
    // The client wrote a fresh address each time; the one trusted proxy appended the client's real address.
    for (let i = 0; i < 20; i++) {
      const res = await register(ctx.app, { 'x-forwarded-for': `${madeUpAddress(i)}, 198.51.100.8` });
      expect(res.statusCode).toBe(201);
    }
    const res = await register(ctx.app, { 'x-forwarded-for': `${madeUpAddress(21)}, 198.51.100.8` });
    expect(res.statusCode).toBe(429);
  });
});
