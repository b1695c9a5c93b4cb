import type { ChangePasswordResponse, ConfirmEmailResponse, User } from '@backbeat/contract';
import type { AuthUser } from '../../platform/auth';
import { AppError, badRequest, conflict, forbidden, unauthorized } from '../../platform/errors';
import type { MediaStore } from '../../storage';
import { imageFolder } from '../../platform/media-url';
import { storeCoverImage, uploadError, type ReceivedFile } from '../catalog';
import type { Mailer } from '../mail';
import { RECENT_SIGN_IN_MS } from './account.service';
import type { RequestMeta } from './auth.service';
import { confirmEmailChangeMail, emailChangedNoticeMail } from './email-change.mail';
import type { EmailChangeTokens } from './email-change-token';
import { hashPassword, verifyPassword } from './password';
import type { ProfileRepository } from './profile.repository';
import { AUTH_RATE_LIMITS, type RateLimitService } from './rate-limit.service';
import { toUser } from './user.mapper';
import type { UserRow, UsersRepository } from './users.repository';

/** The slice of the app's logger these settings use. */
export interface SettingsLog {
  warn(entry: object, message: string): void;
  error(entry: object, message: string): void;
}

export interface AccountSettingsDeps {
  users: UsersRepository;
  profiles: ProfileRepository;
  rateLimits: RateLimitService;
  tokens: EmailChangeTokens;
  mailer: Mailer;
  mediaStore: MediaStore;
  publicUrl: string;
  log: () => SettingsLog;
  now?: () => Date;
}

const linkInvalid = () =>
  badRequest('This confirmation link is invalid, was used already, or has expired', 'EMAIL_LINK_INVALID');
const emailTaken = () => conflict('An account with this email already exists', 'EMAIL_TAKEN');

/** A unique violation on the users' e-mail, at any depth of the driver's error chain. */
function isEmailTaken(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const { code, constraint, cause } = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (code === '23505' && constraint === 'users_email_key') return true;
    current = cause;
  }
  return false;
}

/**
 * The signed-in person's settings: name, e-mail (changed through a link mailed to the new address), password
 * (ends every other session) and profile picture. Preferred genres and deletion keep their own services.
 */
export class AccountSettingsService {
  private readonly now: () => Date;

  constructor(private readonly deps: AccountSettingsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async rename(auth: AuthUser, name: string): Promise<User> {
    const user = await this.account(auth);
    await this.deps.users.updateName(user.id, name);
    return this.present(auth);
  }

  /** Mails the confirmation link to the new address; nothing changes until it is used. */
  async requestEmailChange(auth: AuthUser, email: string, password: string | undefined): Promise<string> {
    const user = await this.account(auth);
    await this.deps.rateLimits.reserve([{ rule: AUTH_RATE_LIMITS.changeEmail, subject: `user:${user.id}` }]);
    await this.proveIdentity(auth, user, password, 'change your e-mail address');
    if (email === user.email) throw badRequest('email: This is already your e-mail address');
    if (await this.deps.users.findByEmail(email)) throw emailTaken();
    const token = this.deps.tokens.issue(user.id, user.email, email, this.now().getTime());
    const query = new URLSearchParams({ token, email });
    const link = `${this.deps.publicUrl}/settings/email?${query.toString()}`;
    await this.deps.mailer.send(confirmEmailChangeMail(email, user.name, link, token));
    return `We sent a link to ${email}. Your address changes when you open it.`;
  }

  /** The mailed link was opened: the address changes, and the old one is told. No session is needed. */
  async confirmEmailChange(token: string, email: string, meta: RequestMeta): Promise<ConfirmEmailResponse> {
    await this.deps.rateLimits.consume(AUTH_RATE_LIMITS.confirmEmail, [`ip:${meta.ip}`]);
    const claims = this.deps.tokens.open(token, this.now().getTime());
    if (!claims || !claims.isFor(email)) throw linkInvalid();
    const user = await this.deps.users.findById(claims.userId);
    if (!user) throw linkInvalid();
    if (user.email === email) return { message: 'Your e-mail address is already confirmed', email };
    if (!claims.replaces(user.email)) throw linkInvalid();
    let changed: UserRow | null;
    try {
      changed = await this.deps.users.changeEmail(user.id, user.email, email);
    } catch (error) {
      if (isEmailTaken(error)) throw emailTaken();
      throw error;
    }
    if (!changed) throw linkInvalid();
    // The old address hears of it; a failed notice must not undo the change the owner just confirmed.
    await this.deps.mailer
      .send(emailChangedNoticeMail(user.email, user.name, email))
      .catch((error: unknown) => this.deps.log().error({ err: error }, 'e-mail change notice failed'));
    return { message: 'Your e-mail address has been changed', email };
  }

  async changePassword(
    auth: AuthUser,
    currentPassword: string | undefined,
    newPassword: string,
  ): Promise<ChangePasswordResponse> {
    const user = await this.account(auth);
    await this.deps.rateLimits.reserve([
      { rule: AUTH_RATE_LIMITS.changePassword, subject: `user:${user.id}` },
    ]);
    await this.proveIdentity(auth, user, currentPassword, 'set a password');
    const passwordHash = await hashPassword(newPassword);
    const endedSessions = await this.deps.users.setPasswordEndingOtherSessions(
      user.id,
      passwordHash,
      auth.sessionId,
      this.now(),
    );
    const others =
      endedSessions === 0
        ? 'No other device was signed in.'
        : `Signed out of ${endedSessions} other session${endedSessions === 1 ? '' : 's'}.`;
    return { message: `Password changed. ${others}`, endedSessions };
  }

  async setAvatar(auth: AuthUser, file: ReceivedFile | undefined): Promise<User> {
    const user = await this.account(auth);
    if (!file) throw badRequest('image: an image file is required');
    let key: string;
    try {
      key = await storeCoverImage(this.deps.mediaStore, file.path, 'avatar');
    } catch (error) {
      throw uploadError(file.field, error);
    }
    const previous = await this.deps.users.setProfileImage(user.id, key);
    await this.discard(previous);
    return this.present(auth);
  }

  async removeAvatar(auth: AuthUser): Promise<User> {
    const user = await this.account(auth);
    await this.discard(await this.deps.users.setProfileImage(user.id, null));
    return this.present(auth);
  }

  private async account(auth: AuthUser): Promise<UserRow> {
    const user = await this.deps.users.findById(auth.id);
    if (!user) throw unauthorized('User not found', 'SESSION_INVALID');
    return user;
  }

  private async present(auth: AuthUser): Promise<User> {
    const user = await this.account(auth);
    return toUser(user, await this.deps.profiles.loadLists(user.id));
  }

  /**
   * The current password where the account has one (403, not 401: the session is fine, and a 401 would sign the
   * web client out); an account without one (social sign-in) proves itself with a session under 10 minutes old.
   */
  private async proveIdentity(auth: AuthUser, user: UserRow, password: string | undefined, what: string) {
    if (user.passwordHash) {
      if (!password)
        throw new AppError(400, 'VALIDATION_ERROR', 'password: Your current password is required');
      if (!(await verifyPassword(user.passwordHash, password)))
        throw forbidden('Your current password is not correct', 'INVALID_PASSWORD');
      return;
    }
    if (this.now().getTime() - auth.sessionCreatedAt.getTime() > RECENT_SIGN_IN_MS) {
      throw forbidden(`Please sign in again to ${what}`, 'REAUTHENTICATION_REQUIRED');
    }
  }

  /** An uploaded picture that is no longer shown; a social provider's address is not ours to remove. */
  private async discard(previous: string | null) {
    if (!previous?.startsWith('images/avatar/')) return;
    await this.deps.mediaStore
      .removePrefix(imageFolder(previous))
      .catch((error: unknown) => this.deps.log().warn({ err: error }, 'could not remove a replaced avatar'));
  }
}
