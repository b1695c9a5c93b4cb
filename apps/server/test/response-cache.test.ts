import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/platform/auth';
import { ResponseCache, matchesIfNoneMatch } from '../src/platform/response-cache';

/** A bare app whose handler counts its runs and can be held mid-computation. */
function appWith(cache: ResponseCache, audience: 'everyone' | 'viewer') {
  const app = Fastify();
  let version = 0;
  let runs = 0;
  let hold: Promise<void> | null = null;
  app.decorateRequest('getUser', function (this: { headers: Record<string, unknown> }) {
    const id = this.headers['x-user'];
    const user = typeof id === 'string' ? ({ id, role: 'user' } as AuthUser) : null;
    return Promise.resolve(user);
  });
  app.decorateRequest('knownGuest', function (this: { headers: Record<string, unknown> }) {
    return this.headers['x-user'] === undefined;
  });
  app.get('/thing', cache.route(audience), async (request) => {
    runs++;
    const seen = version;
    if (hold) await hold;
    return { version: seen, user: (await request.getUser())?.id ?? null };
  });
  return {
    app,
    runs: () => runs,
    bump: () => version++,
    holdNext() {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

describe('ResponseCache', () => {
  it('does not store an answer computed while an invalidation happened', async () => {
    const cache = new ResponseCache();
    const t = appWith(cache, 'everyone');
    app = t.app;
    const release = t.holdNext();
    const slow = t.app.inject({ method: 'GET', url: '/thing' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    t.bump(); // the write commits...
    cache.invalidate(); // ...and invalidates while the old answer is still being built
    release();
    expect((await slow).json().version).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/thing' })).json().version).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: '/thing' })).json().version).toBe(1);
    expect(t.runs()).toBe(2);
  });

  it('keys viewer answers per account and drops only the invalidated account', async () => {
    const cache = new ResponseCache();
    const t = appWith(cache, 'viewer');
    app = t.app;
    const as = (user?: string) =>
      t.app.inject({ method: 'GET', url: '/thing', headers: user ? { 'x-user': user } : {} });
    expect((await as('a')).json().user).toBe('a');
    expect((await as('b')).json().user).toBe('b');
    expect((await as()).json().user).toBeNull();
    expect((await as('a')).json().user).toBe('a');
    expect(t.runs()).toBe(3);
    cache.invalidateUser('a');
    await as('a');
    await as('b');
    expect(t.runs()).toBe(4);
  });

  it('expires entries after the TTL and keeps the total size bounded', async () => {
    let now = Date.UTC(2027, 0, 1);
    const cache = new ResponseCache({ ttlMs: 50, maxSize: 16 * 40, now: () => now });
    const t = appWith(cache, 'everyone');
    app = t.app;
    await t.app.inject({ method: 'GET', url: '/thing' });
    now += 49;
    await t.app.inject({ method: 'GET', url: '/thing' });
    expect(t.runs()).toBe(1);
    now += 1;
    await t.app.inject({ method: 'GET', url: '/thing' });
    expect(t.runs()).toBe(2);
    for (let i = 0; i < 40; i++) await t.app.inject({ method: 'GET', url: `/thing?n=${i}` });
    expect(cache.count).toBeLessThan(40);
    expect(cache.count).toBeGreaterThan(0);
  });

  it('keeps a viewer answer only until the deadline the viewer has, on the app clock (a period that ends)', async () => {
    // The app clock may run far from the wall clock (tests move it a month at once): both sides use it.
    let now = Date.UTC(2030, 5, 1);
    const periodEnd = now + 30 * 24 * 3600 * 1000;
    const cache = new ResponseCache({ now: () => now, viewerValidUntil: async () => periodEnd });
    const t = appWith(cache, 'viewer');
    app = t.app;
    const asA = () => t.app.inject({ method: 'GET', url: '/thing', headers: { 'x-user': 'a' } });
    await asA();
    await asA();
    expect(t.runs()).toBe(1);
    now = periodEnd + 60_000;
    await asA();
    expect(t.runs()).toBe(2);
  });

  it('compares If-None-Match weakly, in lists and with *', () => {
    expect(matchesIfNoneMatch('"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b", W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false);
  });
});
