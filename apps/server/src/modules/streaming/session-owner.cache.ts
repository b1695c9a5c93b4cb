import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../platform/auth';
import { hashToken } from '../../platform/session-token';
import type { Requester } from './streaming.service';
import { TtlCache } from '../../platform/ttl-cache';

const SESSION_OWNER_TTL_MS = 30_000;

/**
 * Which user a media request's session belongs to, remembered briefly per credential (hashed: no session token
 * is kept in memory). The answer is only ever used to REFUSE a stream token presented by another account, never
 * to grant access, so a revoked session seen for a few more seconds cannot let anyone in; it saves the session
 * query on every key fetch.
 */
export class SessionOwnerCache {
  private readonly owners = new TtlCache<string, string | null>(20_000, SESSION_OWNER_TTL_MS);

  requester(request: FastifyRequest): Requester {
    return async () => {
      const header = request.headers.authorization;
      const cookie = request.cookies[SESSION_COOKIE];
      if (!header && !cookie) return null;
      const key = hashToken(`${header ?? ''}\n${cookie ?? ''}`);
      const cached = this.owners.get(key);
      if (cached !== undefined) return cached;
      const owner = (await request.getUser())?.id ?? null;
      this.owners.set(key, owner);
      return owner;
    };
  }
}
