import { createHash } from 'node:crypto';
import type { DoneFuncWithErrOrRes, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Who may share a cached answer: `everyone` (the response never depends on the viewer: artists, albums, genres)
 * or `viewer` (song lists carry the viewer's `canPlay`: one entry for guests, one for admins, one per other
 * signed-in account and role).
 */
export type CacheAudience = 'everyone' | 'viewer';

export interface ResponseCacheOptions {
  /** Safety net for changes this process is not told about (a direct database write, a lost bus notice). */
  ttlMs?: number;
  /** Bound on the cached bodies' total size (UTF-16 code units, close to bytes for JSON). */
  maxSize?: number;
  /**
   * Until when (epoch ms) a signed-in viewer's answers may be reused without any write: e.g. the end of the
   * earliest paid subscription period, after which `canPlay` changes by itself. Asked once per viewer and cache
   * generation.
   */
  viewerValidUntil?: (userId: string) => Promise<number>;
  /**
   * The time (epoch ms) entries expire by: the app's clock, the one `viewerValidUntil` answers in (tests move it a
   * month at once; a cached `canPlay` must not outlive the period it was computed in).
   */
  now?: () => number;
}

interface Entry {
  body: string;
  etag: string;
  expiresAt: number;
}

interface Pending {
  key: string;
  userId: string | null;
  generation: number;
  userEpoch: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A strong validator derived from the body: equal bodies share an ETag across restarts and instances. */
export const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('base64url')}"`;

/** If-None-Match holds `*` or a list of (possibly weak) tags; weak comparison is right for GET (RFC 9110 13.1.2). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === etag;
  });
}

/**
 * In-process cache of serialized JSON answers to public GETs, with ETag / 304 on every cached route (hit or
 * miss). Precise invalidation: `invalidate()` after every committed catalogue write drops everything;
 * `invalidateUser(id)` after a change of one account's entitlements drops that account's entries. An answer
 * computed while an invalidation happened is not stored, so a read that started before a write can never put the
 * old state back. Entries also expire after `ttlMs`.
 *
 * Use: spread `cache.route('everyone' | 'viewer')` into a GET route's options.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new WeakMap<FastifyRequest, Pending>();
  private readonly viewerDeadlines = new Map<string, Promise<number>>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly maxSize: number;
  private size = 0;
  private generation = 0;
  /** Bumped by every per-account invalidation; an account's answer computed across one is not stored. */
  private userEpoch = 0;

  constructor(private readonly options: ResponseCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.maxSize = options.maxSize ?? 32 * 1024 * 1024;
  }

  /** Drops every cached answer (any catalogue write). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.viewerDeadlines.clear();
    this.size = 0;
  }

  /** Drops one account's cached answers (a purchase, a subscription started, renewed or ended). */
  invalidateUser(userId: string): void {
    this.userEpoch++;
    this.viewerDeadlines.delete(userId);
    const prefix = `u:${userId}:`;
    for (const [key, entry] of this.entries) {
      if (key.startsWith(prefix)) this.remove(key, entry);
    }
  }

  /** The catalogue's version: changes with every `invalidate()`, so derived caches can tell they are stale. */
  get version(): number {
    return this.generation;
  }

  /**
   * Keeps this request's answer out of the cache: an answer a route serves to some viewers only (a deleted album,
   * to its buyers) on a route whose other answers are the same for everyone.
   */
  doNotStore(request: FastifyRequest): void {
    this.pending.delete(request);
  }

  /** Number of cached answers (tests and benchmarks). */
  get count(): number {
    return this.entries.size;
  }

  /**
   * Route hooks: answer from the cache before the handler runs; remember a fresh 200 answer when it is sent.
   * Callback-style, not async: a cache hit is a map lookup, and each promise hop would cost it a measurable share.
   */
  route(audience: CacheAudience) {
    const cacheControl = audience === 'everyone' ? 'no-cache' : 'private, no-cache';
    return {
      onRequest: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        if (request.method !== 'GET') return done();
        reply.header('cache-control', cacheControl);
        if (audience === 'everyone') return this.answer(request, reply, '*', null, done);
        reply.header('vary', 'Authorization, Cookie');
        // A request without a session token is a guest's: answered at once, without a promise hop.
        if (request.knownGuest()) return this.answer(request, reply, 'guest', null, done);
        request
          .getUser()
          .then((user) => {
            if (!user) this.answer(request, reply, 'guest', null, done);
            else if (user.role === 'admin') this.answer(request, reply, 'admin', null, done);
            else this.answer(request, reply, `u:${user.id}:${user.role}`, user.id, done);
          })
          .catch(done);
      },
      onSend: (
        request: FastifyRequest,
        reply: FastifyReply,
        payload: unknown,
        done: DoneFuncWithErrOrRes,
      ) => {
        const pending = this.pending.get(request);
        if (!pending) return done(null, payload);
        this.pending.delete(request);
        if (reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
        const etag = etagOf(payload);
        reply.header('etag', etag);
        const stored = reply.hasHeader('set-cookie') ? Promise.resolve() : this.store(pending, payload, etag);
        stored
          .then(() => {
            if (!matchesIfNoneMatch(request.headers['if-none-match'], etag)) return done(null, payload);
            reply.code(304).removeHeader('content-type');
            done(null, null);
          })
          .catch(done);
      },
    };
  }

  /** Sends the cached answer for this viewer and URL, or lets the handler compute it (and marks it for storing). */
  private answer(
    request: FastifyRequest,
    reply: FastifyReply,
    viewer: string,
    userId: string | null,
    done: HookHandlerDoneFunction,
  ): void {
    const key = `${viewer} ${request.url}`;
    const hit = this.lookup(key);
    if (!hit) {
      this.pending.set(request, { key, userId, generation: this.generation, userEpoch: this.userEpoch });
      return done();
    }
    reply.header('etag', hit.etag);
    if (matchesIfNoneMatch(request.headers['if-none-match'], hit.etag)) reply.code(304).send();
    else reply.header('content-type', JSON_TYPE).send(hit.body);
  }

  private lookup(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(key, entry);
      return undefined;
    }
    return entry;
  }

  private async store(pending: Pending, body: string, etag: string): Promise<void> {
    let expiresAt = this.now() + this.ttlMs;
    if (pending.userId && this.options.viewerValidUntil) {
      expiresAt = Math.min(expiresAt, await this.viewerDeadline(pending.userId));
    }
    // A write (or this account's entitlement change) happened while the answer was computed: it may be stale.
    if (pending.generation !== this.generation) return;
    if (pending.userId && pending.userEpoch !== this.userEpoch) return;
    if (expiresAt <= this.now() || body.length > this.maxSize / 16) return;
    const previous = this.entries.get(pending.key);
    if (previous) this.remove(pending.key, previous);
    this.entries.set(pending.key, { body, etag, expiresAt });
    this.size += body.length;
    // Map order is insertion order: the oldest entries go first.
    for (const [key, entry] of this.entries) {
      if (this.size <= this.maxSize) break;
      this.remove(key, entry);
    }
  }

  /** Cached per account; asked again once the remembered deadline has passed or the account was invalidated. */
  private async viewerDeadline(userId: string): Promise<number> {
    const cached = this.viewerDeadlines.get(userId);
    if (cached) {
      const deadline = await cached;
      if (deadline > this.now()) return deadline;
      if (this.viewerDeadlines.get(userId) === cached) this.viewerDeadlines.delete(userId);
    }
    const epoch = [this.generation, this.userEpoch].join();
    const loading = this.options.viewerValidUntil!(userId).catch(() => 0);
    if (this.viewerDeadlines.size >= 10_000) this.viewerDeadlines.clear();
    this.viewerDeadlines.set(userId, loading);
    const deadline = await loading;
    // Loaded across an invalidation: usable for this answer (which is then not stored), not remembered.
    if (epoch !== [this.generation, this.userEpoch].join() && this.viewerDeadlines.get(userId) === loading)
      this.viewerDeadlines.delete(userId);
    return deadline;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.size -= entry.body.length;
  }
}
