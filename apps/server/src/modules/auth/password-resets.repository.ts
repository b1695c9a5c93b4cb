import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { passwordResets, sessions, users } from '../../db/schema';
import type { SessionRevocations } from '../../platform/session-cache';

export class PasswordResetsRepository {
  constructor(
    private readonly db: AppDb,
    private readonly sessionCache: SessionRevocations,
  ) {}

  async create(reset: { userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(passwordResets).values(reset);
  }

  /** The user a still-usable token belongs to, or null (unknown, used or expired). */
  async findUsable(tokenHash: string, now: Date): Promise<{ userId: string } | null> {
    const [row] = await this.db
      .select({ userId: passwordResets.userId })
      .from(passwordResets)
      .where(usable(tokenHash, now))
      .limit(1);
    return row ?? null;
  }

  /**
   * In one transaction: uses the token (only if still usable, so two concurrent resets cannot both win), voids the
   * user's other reset links, sets the new password and ends every session (also in the session cache, once
   * committed). False when the token was not usable.
   */
  async consume(tokenHash: string, passwordHash: string, now: Date): Promise<boolean> {
    const userId = await this.db.transaction(async (tx) => {
      const [used] = await tx
        .update(passwordResets)
        .set({ usedAt: now })
        .where(usable(tokenHash, now))
        .returning({ userId: passwordResets.userId });
      if (!used) return null;
      await tx
        .update(passwordResets)
        .set({ usedAt: now })
        .where(and(eq(passwordResets.userId, used.userId), isNull(passwordResets.usedAt)));
      // Following the mailed link proves the address, so the e-mail counts as verified from now on.
      await tx
        .update(users)
        .set({ passwordHash, emailVerified: true, updatedAt: now })
        .where(eq(users.id, used.userId));
      await tx
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, used.userId), isNull(sessions.revokedAt)));
      return used.userId;
    });
    if (userId === null) return false;
    await this.sessionCache.forgetUser(userId);
    return true;
  }
}

function usable(tokenHash: string, now: Date) {
  return and(
    eq(passwordResets.tokenHash, tokenHash),
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, now),
  );
}
