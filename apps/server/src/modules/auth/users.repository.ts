import { and, eq } from 'drizzle-orm';
import type { Role } from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import { oauthAccounts, users } from '../../db/schema';
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
}
