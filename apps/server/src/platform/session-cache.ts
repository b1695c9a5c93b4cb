import type { AuthUser } from './auth';
import { TtlCache } from './ttl-cache';

/**
 * How long a revocation can go unseen by this process when nobody told it: a direct database write, or a notice
 * lost with the change bus's connection. Other instances' logouts and resets arrive over the bus at once.
 */
export const SESSION_CACHE_TTL_MS = 5_000;

/** A session the database just confirmed, and when it expires. */
export interface ConfirmedSession {
  user: AuthUser;
  expiresAt: Date;
}

/**
 * Signed-in sessions recently confirmed by the database, by token hash (no token is kept in memory): without it
 * every signed-in request, cached catalogue answers included, would run the session query.
 *
 * Whatever ends a session publishes it on the change bus right after its write (`SessionRevocations`), and every
 * process's bus listener calls `forgetSession` (logout) or `forgetUser` (password reset, account deletion, a
 * social link that voids the password), so the session stops authenticating at once on every instance; a direct
 * database write is seen within `ttlMs`. A lookup that ran
 * across an invalidation is not remembered (it may have read the session before it ended), and an entry never
 * outlives the session's own expiry. Only valid sessions are kept: an unknown token is looked up every time.
 */
export class SessionCache {
  private readonly sessions: TtlCache<string, Readonly<AuthUser>>;
  /** Session id -> its user id, for checks by id (stream tokens name the session that minted them). */
  private readonly liveSessions: TtlCache<string, string>;
  private readonly ttlMs: number;
  /** Bumped by every invalidation; a lookup that started before one is not stored. */
  private epoch = 0;
  /** Session loads under way, by token hash, with the epoch they started in. */
  private readonly loading = new Map<string, { epoch: number; answer: Promise<AuthUser | null> }>();

  constructor(options: { ttlMs?: number; maxEntries?: number } = {}) {
    this.ttlMs = options.ttlMs ?? SESSION_CACHE_TTL_MS;
    this.sessions = new TtlCache(options.maxEntries ?? 50_000, this.ttlMs);
    this.liveSessions = new TtlCache(options.maxEntries ?? 50_000, this.ttlMs);
  }

  /**
   * The user of a remembered session, else the loader's answer (remembered when still current). Concurrent misses
   * of one token share one load (a busy client's parallel requests when its entry expires), unless an invalidation
   * came between: a request that started after a logout never takes an answer read before it.
   */
  resolve(tokenHash: string, load: () => Promise<ConfirmedSession | null>): Promise<AuthUser | null> {
    const cached = this.sessions.get(tokenHash);
    if (cached) return Promise.resolve(cached);
    const inFlight = this.loading.get(tokenHash);
    if (inFlight && inFlight.epoch === this.epoch) return inFlight.answer;
    const epoch = this.epoch;
    const answer = this.confirm(tokenHash, epoch, load).finally(() => {
      if (this.loading.get(tokenHash)?.answer === answer) this.loading.delete(tokenHash);
    });
    this.loading.set(tokenHash, { epoch, answer });
    return answer;
  }

  private async confirm(
    tokenHash: string,
    epoch: number,
    load: () => Promise<ConfirmedSession | null>,
  ): Promise<AuthUser | null> {
    const found = await load();
    if (!found) return null;
    const user = Object.freeze(found.user);
    const now = Date.now();
    const ttlMs = Math.min(this.ttlMs, found.expiresAt.getTime() - now);
    if (epoch === this.epoch && ttlMs > 0) {
      this.sessions.set(tokenHash, user, now, ttlMs);
      this.liveSessions.set(user.sessionId, user.id, now, ttlMs);
    }
    return user;
  }

  /**
   * Whether a session (by id) is still live: remembered like `resolve`'s answers, with the same invalidations and
   * TTL, so a stream token checked on every key request costs a query at most once per TTL.
   */
  async isLive(
    sessionId: string,
    load: () => Promise<{ userId: string; expiresAt: Date } | null>,
  ): Promise<boolean> {
    if (this.liveSessions.get(sessionId)) return true;
    const epoch = this.epoch;
    const found = await load();
    if (!found) return false;
    const now = Date.now();
    const ttlMs = Math.min(this.ttlMs, found.expiresAt.getTime() - now);
    if (epoch === this.epoch && ttlMs > 0) this.liveSessions.set(sessionId, found.userId, now, ttlMs);
    return true;
  }

  /** One session ended (logout). */
  forgetSession(sessionId: string): void {
    this.epoch++;
    this.sessions.deleteWhere((user) => user.sessionId === sessionId);
    this.liveSessions.delete(sessionId);
  }

  /** Every session of an account ended, or the account changed or went away. */
  forgetUser(userId: string): void {
    this.epoch++;
    this.sessions.deleteWhere((user) => user.id === userId);
    this.liveSessions.deleteWhere((owner) => owner === userId);
  }

  /** Anything may have changed (the change bus lost its connection): confirm every session again. */
  forgetAll(): void {
    this.epoch++;
    this.sessions.deleteWhere(() => true);
    this.liveSessions.deleteWhere(() => true);
  }
}

/**
 * What code that ends sessions calls after its write: every instance forgets the session(s), and the promise
 * resolves once they have all been sent the notice.
 */
export interface SessionRevocations {
  forgetSession(sessionId: string): Promise<void>;
  forgetUser(userId: string): Promise<void>;
}
