import type { AuthUser } from '../../platform/auth';
import { AppError, forbidden, unauthorized } from '../../platform/errors';
import type { AccountErasure } from '../../platform/account-erasure';
import { removeOutboxFiles, type MailOutboxRepository } from '../mail';
import { verifyPassword } from './password';
import { AUTH_RATE_LIMITS, type RateLimitService } from './rate-limit.service';
import type { UsersRepository } from './users.repository';

/** Accounts without a password (social sign-in) prove themselves with a session this fresh. */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

export class AccountService {
  constructor(
    private readonly deps: {
      users: UsersRepository;
      outbox: MailOutboxRepository;
      /** Limits password checks: 5 per account in 15 minutes, each counted before the check. */
      rateLimits?: RateLimitService;
      now?: () => Date;
      onDeleted?: (userId: string) => Promise<void>;
      /** What other modules forget of a deleted account (see AccountErasure). */
      erasure?: AccountErasure;
      /** The development outbox folder, whose .eml files of a deleted account go with their rows. */
      outboxDir?: string;
    },
  ) {}

  /**
   * Deletes the account and, by cascade, its sessions, likes, playlists, genres, purchases, subscriptions and
   * social links. Orders and payments keep their amounts with the buyer set to null, for the accounts. First the
   * other modules forget it (its customer at the gateways, its id and e-mail in stored gateway payloads): if one
   * cannot, nothing is deleted. Its mail in the outbox (rows and .eml files) goes last.
   */
  async deleteAccount(auth: AuthUser, password: string | undefined): Promise<void> {
    const user = await this.deps.users.findById(auth.id);
    if (!user) throw unauthorized('User not found', 'SESSION_INVALID');
    if (user.passwordHash) {
      if (!password) throw new AppError(400, 'VALIDATION_ERROR', 'password: Password is required');
      await this.deps.rateLimits?.reserve([
        { rule: AUTH_RATE_LIMITS.deleteAccount, subject: `user:${user.id}` },
      ]);
      if (!(await verifyPassword(user.passwordHash, password)))
        // 403, not 401: the session is fine, and a 401 would make the web client sign the user out.
        throw forbidden('Invalid password', 'INVALID_PASSWORD');
    } else {
      const now = (this.deps.now ?? (() => new Date()))();
      if (now.getTime() - auth.sessionCreatedAt.getTime() > RECENT_SIGN_IN_MS) {
        throw forbidden('Please sign in again to delete your account', 'REAUTHENTICATION_REQUIRED');
      }
    }
    await this.deps.erasure?.erase({ id: user.id, email: user.email });
    await this.deps.users.delete(user.id);
    const mailIds = await this.deps.outbox.deleteForRecipient(user.email);
    if (this.deps.outboxDir) await removeOutboxFiles(this.deps.outboxDir, mailIds);
    await this.deps.onDeleted?.(user.id);
  }
}
