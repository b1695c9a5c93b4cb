import type { LoginBody, RegisterBody, User } from '@backbeat/contract';
import { SESSION_TTL_MS, type AuthUser } from '../../platform/auth';
import { conflict, unauthorized } from '../../platform/errors';
import { hashToken, newOpaqueToken } from '../../platform/session-token';
import { addressSubject } from '../../platform/address-group';
import type { DeviceCookies } from './device-cookie';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password';
import type { ProfileRepository } from './profile.repository';
import { AUTH_RATE_LIMITS, loginRateLimits, type RateLimitService } from './rate-limit.service';
import type { SessionsRepository } from './sessions.repository';
import type { UserRow, UsersRepository } from './users.repository';
import { toUser } from './user.mapper';

/** Who is asking, for rate limits and the session record. */
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  /** The browser's device cookie, if it sent one (see DeviceCookies). */
  deviceCookie?: string;
}

export interface SignedIn {
  user: User;
  token: string;
  /** A fresh device cookie for this account, for a sign-in with a password (login, registration). */
  deviceCookie: string;
}

export class AuthService {
  constructor(
    private readonly deps: {
      users: UsersRepository;
      profiles: ProfileRepository;
      sessions: SessionsRepository;
      rateLimits: RateLimitService;
      devices: DeviceCookies;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  async register(body: RegisterBody, meta: RequestMeta): Promise<SignedIn> {
    const { users, rateLimits } = this.deps;
    await rateLimits.consume(AUTH_RATE_LIMITS.register, [addressSubject(meta.ip)]);
    if (await users.findByEmail(body.email)) throw emailTaken();
    const passwordHash = await hashPassword(body.password);
    const row = await users.create({
      name: body.name,
      email: body.email,
      passwordHash,
      emailVerified: false,
    });
    if (!row) throw emailTaken(); // Registered concurrently.
    return this.signIn(row, meta);
  }

  async login(body: LoginBody, meta: RequestMeta): Promise<SignedIn> {
    const { users, rateLimits, devices } = this.deps;
    const row = await users.findByEmail(body.email);
    // The owner's own browser, by the device cookie its last successful sign-in left (OWASP's device cookies).
    const device = devices.open(meta.deviceCookie, this.now().getTime());
    const trustedDevice = row && device?.userId === row.id ? device.nonce : null;
    // Counted as a failure before the password is checked, so parallel guesses cannot overrun the limit.
    const attempt = await rateLimits.reserve(loginRateLimits(meta.ip, body.email, trustedDevice));
    const valid = row?.passwordHash
      ? await verifyPassword(row.passwordHash, body.password)
      : await verifyAgainstDummy(body.password);
    if (!row || !valid) throw unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');
    await rateLimits.release(attempt); // Successful sign-ins do not count.
    return this.signIn(row, meta);
  }

  async me(auth: AuthUser): Promise<User> {
    const row = await this.deps.users.findById(auth.id);
    if (!row) throw unauthorized('User not found', 'SESSION_INVALID');
    return toUser(row, await this.deps.profiles.loadLists(row.id));
  }

  async logout(auth: AuthUser): Promise<void> {
    await this.deps.sessions.revoke(auth.sessionId);
  }

  /** Opens a session for an authenticated account and returns the opaque token (only its hash is stored). */
  async openSession(userId: string, meta: RequestMeta): Promise<string> {
    const token = newOpaqueToken();
    await this.deps.sessions.create({
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
      userAgent: meta.userAgent,
      ip: meta.ip,
    });
    return token;
  }

  private async signIn(row: UserRow, meta: RequestMeta): Promise<SignedIn> {
    const token = await this.openSession(row.id, meta);
    return {
      user: toUser(row, await this.deps.profiles.loadLists(row.id)),
      token,
      deviceCookie: this.deps.devices.issue(row.id, this.now().getTime()),
    };
  }
}

const emailTaken = () => conflict('An account with this email already exists', 'EMAIL_TAKEN');
