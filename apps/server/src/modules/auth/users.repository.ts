import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Role } from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import { oauthAccounts, sessions, users } from '../../db/schema';
import type { SessionRevocations } from '../../platform/session-cache';

export interface UserRow {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  passwordHash: string | null;
  role: Role;
  profileImage: string | null;
  createdAt: Date;
}

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string | null;
  emailVerified: boolean;
  profileImage?: string | null;
}

const columns = {
  id: users.id,
  name: users.name,
  email: users.email,
  emailVerified: users.emailVerified,
  passwordHash: users.passwordHash,
  role: users.role,
  profileImage: users.profileImage,
  createdAt: users.createdAt,
};

/** Accounts; writes that end an account's sessions also drop them from the in-process session cache. */
export class UsersRepository {
  constructor(
    private readonly db: AppDb,
    private readonly sessionCache: SessionRevocations,
  ) {}

  async findById(id: string): Promise<UserRow | null> {
    const [row] = await this.db.select(columns).from(users).where(eq(users.id, id)).limit(1);
    return row ?? null;
  }

  /** E-mails are stored lower-cased; callers pass the normalised address. */
  async findByEmail(email: string): Promise<UserRow | null> {
    const [row] = await this.db.select(columns).from(users).where(eq(users.email, email)).limit(1);
    return row ?? null;
  }

  /** Null when the e-mail is already taken (also under a concurrent insert). */
  async create(user: NewUser): Promise<UserRow | null> {
    const [row] = await this.db
      .insert(users)
      .values(user)
      .onConflictDoNothing({ target: users.email })
      .returning(columns);
    return row ?? null;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(users).where(eq(users.id, id));
    await this.sessionCache.forgetUser(id);
  }

  async findByOauthAccount(provider: string, subject: string): Promise<UserRow | null> {
    const [row] = await this.db
      .select(columns)
      .from(oauthAccounts)
      .innerJoin(users, eq(users.id, oauthAccounts.userId))
      .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.subject, subject)))
      .limit(1);
    return row ?? null;
  }

  /** Creates the account and its social link together; null when the e-mail was taken meanwhile. */
  async createWithOauthAccount(
    user: NewUser,
    link: { provider: string; subject: string },
  ): Promise<UserRow | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values(user)
        .onConflictDoNothing({ target: users.email })
        .returning(columns);
      if (!row) return null;
      await tx.insert(oauthAccounts).values({ ...link, userId: row.id, email: user.email });
      return row;
    });
  }

  async updateName(id: string, name: string): Promise<void> {
    await this.db.update(users).set({ name, updatedAt: new Date() }).where(eq(users.id, id));
    // Sessions carry the name: the next request reads it afresh.
    await this.sessionCache.forgetUser(id);
  }

  /**
   * Moves the account from `from` to `to` (a mailed link proved `to`), only while `from` is still its address.
   * Null when it is not (the link was used already, or another change came first); throws the unique violation
   * when `to` was taken meanwhile.
   */
  async changeEmail(id: string, from: string, to: string): Promise<UserRow | null> {
    const [row] = await this.db
      .update(users)
      .set({ email: to, emailVerified: true, updatedAt: new Date() })
      .where(and(eq(users.id, id), eq(users.email, from)))
      .returning(columns);
    if (row) await this.sessionCache.forgetUser(id);
    return row ?? null;
  }

  /** Sets the password and ends every session of the account but `keepSessionId`; answers how many ended. */
  async setPasswordEndingOtherSessions(
    id: string,
    passwordHash: string,
    keepSessionId: string,
    now = new Date(),
  ): Promise<number> {
    const ended = await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, id));
      return tx
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, id), ne(sessions.id, keepSessionId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
    });
    await this.sessionCache.forgetUser(id);
    return ended.length;
  }

  /** Sets (or clears) the profile image; answers the one it replaced. */
  async setProfileImage(id: string, image: string | null): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ image: users.profileImage })
        .from(users)
        .where(eq(users.id, id))
        .for('update');
      await tx.update(users).set({ profileImage: image, updatedAt: new Date() }).where(eq(users.id, id));
      return before?.image ?? null;
    });
  }
}
