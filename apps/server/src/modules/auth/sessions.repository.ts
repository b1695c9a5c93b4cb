import { and, eq, isNull } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { sessions } from '../../db/schema';
import type { SessionRevocations } from '../../platform/session-cache';

export interface NewSession {
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  userAgent: string | null;
  ip: string | null;
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
}
