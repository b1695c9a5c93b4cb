import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/platform/auth';
import { AppError } from '../src/platform/errors';
import { AccountService } from '../src/modules/auth/account.service';
import { PreferencesService } from '../src/modules/auth/preferences.service';
import type { GenreRow, ProfileRepository } from '../src/modules/auth/profile.repository';
import { AUTH_RATE_LIMITS, loginRateLimits, RateLimitService } from '../src/modules/auth/rate-limit.service';
import type { RateLimitRepository, WindowCheck } from '../src/modules/auth/rate-limit.repository';
import type { UserRow, UsersRepository } from '../src/modules/auth/users.repository';
import type { MailOutboxRepository } from '../src/modules/mail';

/** Service unit tests with in-memory repositories (the HTTP tests cover the real database). */

const auth = (overrides: Partial<AuthUser> = {}): AuthUser => ({
  id: 'u1',
  email: 'u1@example.com',
  name: 'U',
  role: 'user',
  sessionId: 's1',
  sessionCreatedAt: new Date(),
  ...overrides,
});

class MemoryRateLimitRepository {
  hits = new Map<string, Date[]>();
  async reserve(checks: WindowCheck[], now: Date) {
    for (const [index, { key, limit, windowStart }] of checks.entries()) {
      const kept = (this.hits.get(key) ?? []).filter((at) => at > windowStart);
      this.hits.set(key, kept);
      if (kept.length >= limit) return { index, state: { hits: kept.length, oldest: kept[0] ?? null } };
    }
    for (const { key } of checks) this.hits.get(key)!.push(now);
    return null;
  }
  async release(keys: string[], at: Date) {
    for (const key of keys) {
      const kept = this.hits.get(key) ?? [];
      const index = kept.findIndex((hit) => hit.getTime() === at.getTime());
      if (index >= 0) kept.splice(index, 1);
    }
  }
  async pruneBefore() {}
}

describe('RateLimitService', () => {
  it('allows the limit, refuses the next with the minutes until the oldest hit leaves the window', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const limiter = new RateLimitService(
      new MemoryRateLimitRepository() as unknown as RateLimitRepository,
      () => now,
    );
    const rule = AUTH_RATE_LIMITS.forgotPassword;
    for (let i = 0; i < rule.limit; i++) {
      await limiter.consume(rule, ['ip:1']);
      now = new Date(now.getTime() + 60_000);
    }
    // Ten hits one minute apart; the first leaves the window 15 minutes after it was made, i.e. in 5 minutes.
    await expect(limiter.consume(rule, ['ip:1'])).rejects.toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Please try again in 5 minutes.',
    });
    now = new Date(now.getTime() + 4 * 60_000 + 30_000);
    await expect(limiter.consume(rule, ['ip:1'])).rejects.toThrow('Please try again in 1 minute.');
    now = new Date(now.getTime() + 30_001);
    await expect(limiter.consume(rule, ['ip:1'])).resolves.toBeUndefined();
  });

  it('counts an attempt in every window or in none, and takes back a released one (login)', async () => {
    const limiter = new RateLimitService(new MemoryRateLimitRepository() as unknown as RateLimitRepository);
    // Successful sign-ins are released: they never fill a window.
    for (let i = 0; i < 50; i++) await limiter.release(await limiter.reserve(loginRateLimits('ip-1', 'a')));
    for (let i = 0; i < AUTH_RATE_LIMITS.login.limit; i++)
      await limiter.reserve(loginRateLimits('ip-1', 'a'));
    await expect(limiter.reserve(loginRateLimits('ip-1', 'a'))).rejects.toBeInstanceOf(AppError);
    // Another address may still try the account; the refused attempt above counted nowhere.
    await expect(limiter.reserve(loginRateLimits('ip-2', 'a'))).resolves.toMatchObject({
      keys: expect.any(Array),
    });
    await expect(limiter.reserve(loginRateLimits('ip-1', 'b'))).resolves.toMatchObject({
      keys: expect.any(Array),
    });
  });

  it('applies a configured limit in place of the default (AUTH_REGISTER_RATE_LIMIT)', async () => {
    const rule = AUTH_RATE_LIMITS.register;
    const limiter = new RateLimitService(
      new MemoryRateLimitRepository() as unknown as RateLimitRepository,
      () => new Date(),
      { [rule.name]: rule.limit + 5 },
    );
    for (let i = 0; i < rule.limit + 5; i++) await limiter.consume(rule, ['ip:1']);
    await expect(limiter.consume(rule, ['ip:1'])).rejects.toMatchObject({ status: 429 });
  });
});

describe('PreferencesService', () => {
  const genres: GenreRow[] = [
    { id: 'g1', name: 'Hip-Hop', slug: 'hip-hop' },
    { id: 'g2', name: 'R&B', slug: 'r-and-b' },
  ];
  const saved: string[][] = [];
  const profiles = {
    findGenresByKeys: async (keys: string[]) =>
      genres.filter((g) => keys.includes(g.name.toLowerCase()) || keys.includes(g.slug)),
    replacePreferredGenres: async (_user: string, ids: string[]) => void saved.push(ids),
    preferredGenreNames: async () => ['Hip-Hop', 'R&B'],
  } as unknown as ProfileRepository;
  const service = new PreferencesService({ profiles });

  it('maps names and slugs to ids without duplicates', async () => {
    expect(await service.updateGenres(auth(), ['r&b', 'R-AND-B', 'hip-hop'])).toEqual(['Hip-Hop', 'R&B']);
    expect(saved.at(-1)).toEqual(['g2', 'g1']);
  });

  it('names the first unknown genre and saves nothing', async () => {
    const before = saved.length;
    await expect(service.updateGenres(auth(), ['hip-hop', 'Polka'])).rejects.toMatchObject({
      status: 400,
      message: 'Unknown genre: Polka',
    });
    expect(saved).toHaveLength(before);
  });
});

describe('AccountService', () => {
  const socialUser: UserRow = {
    id: 'u1',
    name: 'S',
    email: 's@example.com',
    emailVerified: true,
    passwordHash: null,
    role: 'user',
    profileImage: null,
    createdAt: new Date(),
  };

  it('asks a password-less account to sign in again once its session is over 10 minutes old', async () => {
    const deleted: string[] = [];
    const users = { findById: async () => socialUser, delete: async (id: string) => void deleted.push(id) };
    const outbox = { deleteForRecipient: async () => undefined };
    const now = new Date('2030-01-01T00:10:00Z');
    const service = new AccountService({
      users: users as unknown as UsersRepository,
      outbox: outbox as unknown as MailOutboxRepository,
      now: () => now,
    });
    const stale = auth({ sessionCreatedAt: new Date('2029-12-31T23:59:59Z') });
    await expect(service.deleteAccount(stale, undefined)).rejects.toMatchObject({ status: 403 });
    expect(deleted).toEqual([]);
    await service.deleteAccount(auth({ sessionCreatedAt: new Date('2030-01-01T00:00:00Z') }), undefined);
    expect(deleted).toEqual(['u1']);
  });
});
