import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { SESSION_TTL_MS, type AuthUser } from '../../platform/auth';
import type { ConfirmedSession, SessionRevocations } from '../../platform/session-cache';

/** A session seen again after this long is extended to a full lifetime (one write an hour, not one a request). */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export interface NewSession {
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  userAgent: string | null;
  ip: string | null;
}

/**
 * A session that is neither revoked nor expired (stream, preview and download links live only as long as their
 * session).
 */
export async function findLiveSession(
  db: AppDb,
  sessionId: string,
  now: Date,
): Promise<{ userId: string; expiresAt: Date } | null> {
  const [row] = await db
    .select({ userId: sessions.userId, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

/** Session rows; ending one also drops it from every instance's session cache, so it stops working at once. */
export class SessionsRepository {
  constructor(
    private readonly db: AppDb,
    private readonly cache: SessionRevocations,
  ) {}

  async create(session: NewSession): Promise<void> {
    await this.db.insert(sessions).values(session);
  }

  async revoke(sessionId: string, at = new Date()): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: at })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    await this.cache.forgetSession(sessionId);
  }

  /** The user behind a live session (not revoked, not expired); extends it when last seen over an hour ago. */
  async confirm(tokenHash: string, now = new Date()): Promise<ConfirmedSession | null> {
    const [row] = await this.db
      .select({
        sessionId: sessions.id,
        sessionCreatedAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .limit(1);
    if (!row) return null;
    let expiresAt = row.expiresAt;
    if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
      await this.db
        .update(sessions)
        .set({ lastSeenAt: now, expiresAt })
        .where(eq(sessions.id, row.sessionId));
    }
    const user: AuthUser = {
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      sessionId: row.sessionId,
      sessionCreatedAt: row.sessionCreatedAt,
    };
    return { user, expiresAt };
  }
}
