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

describe('SessionCache.resolve (sign-in lookups)', () => {
  const user = {
    id: USER,
    email: 'a@b.test',
    name: 'A',
    role: 'user' as const,
    sessionId: SESSION,
    sessionCreatedAt: new Date(),
  };

  /** A loader held until the test lets it answer, counting its queries. */
  function heldTable() {
    const table = {
      queries: 0,
      releases: [] as Array<() => void>,
      load: () => {
        table.queries += 1;
        return new Promise<{ user: typeof user; expiresAt: Date } | null>((resolve) =>
          table.releases.push(() => resolve({ user, expiresAt: later(60_000) })),
        );
      },
    };
    return table;
  }

  it('answers concurrent misses of one token with one query', async () => {
    const cache = new SessionCache({ ttlMs: 60_000 });
    const table = heldTable();
    const answers = Array.from({ length: 50 }, () => cache.resolve('hash-1', table.load));
    expect(table.queries).toBe(1);
    table.releases[0]!();
    for (const answer of await Promise.all(answers)) expect(answer?.id).toBe(USER);
    expect(await cache.resolve('hash-1', table.load)).toMatchObject({ id: USER });
    expect(table.queries).toBe(1);
  });

  it('never gives a lookup that started after a logout the answer of one read before it', async () => {
    const cache = new SessionCache({ ttlMs: 60_000 });
    const table = heldTable();
    const before = cache.resolve('hash-1', table.load);
    cache.forgetSession(SESSION);
    const after = cache.resolve('hash-1', table.load);
    expect(table.queries).toBe(2);
    table.releases.forEach((release) => release());
    await Promise.all([before, after]);
    // The lookup made after the logout is the one remembered.
    expect(await cache.resolve('hash-1', table.load)).toMatchObject({ id: USER });
    expect(table.queries).toBe(2);
  });
});
