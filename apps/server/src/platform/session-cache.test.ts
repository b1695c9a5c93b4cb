import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache';

const SESSION = 'session-1';
const USER = 'user-1';
const later = (ms: number) => new Date(Date.now() + ms);

/** A loader standing in for the sessions table; it counts its queries. */
function sessionTable(live: boolean) {
  const table = {
    live,
    queries: 0,
    load: async () => {
      table.queries += 1;
      return table.live ? { userId: USER, expiresAt: later(60_000) } : null;
    },
  };
  return table;
}

describe('SessionCache.isLive (stream tokens check their session by id)', () => {
  it('remembers a live session for the TTL and never remembers a dead one', async () => {
    const cache = new SessionCache({ ttlMs: 60_000 });
    const table = sessionTable(false);
    expect(await cache.isLive(SESSION, table.load)).toBe(false);
    expect(await cache.isLive(SESSION, table.load)).toBe(false);
    expect(table.queries).toBe(2);
    table.live = true;
    expect(await cache.isLive(SESSION, table.load)).toBe(true);
    expect(await cache.isLive(SESSION, table.load)).toBe(true);
    expect(table.queries).toBe(3);
  });

  it('forgets the session at once on logout (forgetSession) and on forgetUser', async () => {
    const cache = new SessionCache({ ttlMs: 60_000 });
    const table = sessionTable(true);
    await cache.isLive(SESSION, table.load);
    table.live = false;
    cache.forgetSession(SESSION);
    expect(await cache.isLive(SESSION, table.load)).toBe(false);

    table.live = true;
    await cache.isLive(SESSION, table.load);
    table.live = false;
    cache.forgetUser(USER);
    expect(await cache.isLive(SESSION, table.load)).toBe(false);
  });

  it('does not remember an answer loaded across a logout, nor past the session expiry', async () => {
    const cache = new SessionCache({ ttlMs: 60_000 });
    let release: () => void = () => undefined;
    const slow = async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return { userId: USER, expiresAt: later(60_000) };
    };
    const pending = cache.isLive(SESSION, slow);
    cache.forgetSession(SESSION);
    release();
    expect(await pending).toBe(true);
    const table = sessionTable(false);
    expect(await cache.isLive(SESSION, table.load)).toBe(false);

    const ending = { userId: USER, expiresAt: later(20) };
    expect(await cache.isLive('short', async () => ending)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.isLive('short', table.load)).toBe(false);
  });

  it('learns live sessions from sign-in lookups, so the key request after a stream URL needs no query', async () => {
    const cache = new SessionCache({ ttlMs: 60_000 });
    await cache.resolve('token-hash', async () => ({
      user: {
        id: USER,
        email: 'a@b.c',
        name: 'A',
        role: 'user',
        sessionId: SESSION,
        sessionCreatedAt: new Date(),
      },
      expiresAt: later(60_000),
    }));
    const table = sessionTable(false);
    expect(await cache.isLive(SESSION, table.load)).toBe(true);
    expect(table.queries).toBe(0);
  });
});
