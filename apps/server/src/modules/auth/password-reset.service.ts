import { addressSubject } from '../../platform/address-group';
import { badRequest } from '../../platform/errors';
import { hashToken, newOpaqueToken } from '../../platform/session-token';
import type { MailLog, Mailer } from '../mail';
import type { RequestMeta } from './auth.service';
import { hashPassword } from './password';
import { passwordResetMail } from './password-reset.mail';
import type { PasswordResetsRepository } from './password-resets.repository';
import { AUTH_RATE_LIMITS, type RateLimitService } from './rate-limit.service';
import type { UsersRepository } from './users.repository';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export class PasswordResetService {
  /** Reset requests still being processed; tests and shutdown may wait for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      users: UsersRepository;
      resets: PasswordResetsRepository;
      rateLimits: RateLimitService;
      mailer: Mailer;
      publicUrl: string;
      log: () => MailLog;
    },
  ) {}

  /**
   * Answers the same way, in about the same time, whether or not the account exists: the lookup, the token and
   * the mail happen after the reply.
   */
  async requestReset(email: string, meta: RequestMeta): Promise<void> {
    await this.deps.rateLimits.consume(AUTH_RATE_LIMITS.forgotPassword, [
      addressSubject(meta.ip),
      `email:${email}`,
    ]);
    const work = this.sendResetLink(email)
      .catch((error: unknown) => this.deps.log().error({ err: error }, 'password reset mail failed'))
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  async resetPassword(token: string, password: string): Promise<void> {
    const tokenHash = hashToken(token);
    // Check before hashing, so junk tokens cost no argon2 time; consume() re-checks atomically.
    if (!(await this.deps.resets.findUsable(tokenHash, new Date()))) throw invalidLink();
    const passwordHash = await hashPassword(password);
    if (!(await this.deps.resets.consume(tokenHash, passwordHash, new Date()))) throw invalidLink();
  }

  /** Resolves once every reset request accepted so far has been processed. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending);
  }

  private async sendResetLink(email: string): Promise<void> {
    const user = await this.deps.users.findByEmail(email);
    if (!user) return;
    const token = newOpaqueToken();
    await this.deps.resets.create({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
    const link = `${this.deps.publicUrl}/reset-password/${token}`;
    await this.deps.mailer.send(passwordResetMail(user.email, user.name, link, token));
  }
}

const invalidLink = () => badRequest('This reset link is invalid or has expired', 'RESET_LINK_INVALID');
