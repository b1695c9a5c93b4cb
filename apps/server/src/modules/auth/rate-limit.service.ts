import { createHash } from 'node:crypto';
import { addressSubject } from '../../platform/address-group';
import { AppError } from '../../platform/errors';
import type { RateLimitRepository } from './rate-limit.repository';

export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60 * 1000;

export const AUTH_RATE_LIMITS = {
  /**
   * Failed sign-ins on one account from one address (an IPv6 /64): keyed by account AND address, so guesses from
   * elsewhere do not lock the owner out.
   */
  login: { name: 'login-account-ip', limit: 10, windowMs: 15 * MINUTE },
  /** Failed sign-ins from one address on any accounts (credential stuffing); room for a shared NAT. */
  loginPerIp: { name: 'login-ip', limit: 30, windowMs: 15 * MINUTE },
  /**
   * Failed sign-ins on one account from browsers it never signed in from: a ceiling that slows guessing spread
   * over many addresses. The owner's own browser (a device cookie) is not held by it (see loginRateLimits).
   */
  loginPerAccount: { name: 'login-account', limit: 50, windowMs: 15 * MINUTE },
  /** Failed sign-ins through one device cookie: the owner's browser, or a thief of it. */
  loginPerDevice: { name: 'login-device', limit: 10, windowMs: 15 * MINUTE },
  /** Reset requests, per address and per account e-mail. */
  forgotPassword: { name: 'forgot-password', limit: 10, windowMs: 15 * MINUTE },
  /** Wrong passwords when deleting an account, per account: a stolen session must not become a password oracle. */
  deleteAccount: { name: 'delete-account', limit: 5, windowMs: 15 * MINUTE },
  /** E-mail change requests per account: each sends a mail to an address of the requester's choosing. */
  changeEmail: { name: 'change-email', limit: 5, windowMs: 60 * MINUTE },
  /** Confirmations of mailed e-mail change links, per IP address. */
  confirmEmail: { name: 'confirm-email', limit: 20, windowMs: 15 * MINUTE },
  /** Password changes per account (each checks the current password): no password oracle for a stolen session. */
  changePassword: { name: 'change-password', limit: 5, windowMs: 15 * MINUTE },
  /** Registration attempts per address. */
  register: { name: 'register', limit: 20, windowMs: 60 * MINUTE },
} satisfies Record<string, RateLimitRule>;

/**
 * The windows one sign-in attempt counts against (OWASP's device cookies, see DeviceCookies). From a browser that
 * carries a valid device cookie of this account: that device's own window only, so strangers' guesses (from any
 * addresses, even the owner's shared NAT) never lock the owner out. From anywhere else: the account and address,
 * the address, and the account's ceiling for untrusted clients, which slows guessing spread over many addresses.
 */
export function loginRateLimits(
  address: string,
  email: string,
  trustedDevice: string | null = null,
): RateLimitCheck[] {
  if (trustedDevice) return [{ rule: AUTH_RATE_LIMITS.loginPerDevice, subject: `device:${trustedDevice}` }];
  const ip = addressSubject(address);
  return [
    { rule: AUTH_RATE_LIMITS.login, subject: `account:${email}|${ip}` },
    { rule: AUTH_RATE_LIMITS.loginPerIp, subject: ip },
    { rule: AUTH_RATE_LIMITS.loginPerAccount, subject: `email:${email}` },
  ];
}

export interface RateLimitCheck {
  rule: RateLimitRule;
  subject: string;
}

/** An attempt counted by `reserve`; `release` takes it back. */
export interface RateLimitReservation {
  keys: string[];
  at: Date;
}

export class RateLimitedError extends AppError {
  constructor(override readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(
      429,
      'RATE_LIMITED',
      `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
}

const PRUNE_EVERY_MS = 10 * MINUTE;
const KEEP_HITS_MS = 24 * 60 * MINUTE;

/**
 * Sliding-window limits on "subjects" such as `ip:203.0.113.9` or `email:ann@example.com`. Keys are hashed:
 * the table holds no e-mail or IP address in clear.
 */
export class RateLimitService {
  private lastPrunedAt = 0;

  constructor(
    private readonly repository: RateLimitRepository,
    private readonly now: () => Date = () => new Date(),
    /** Per-rule limits that replace the defaults above, by rule name (from configuration). */
    private readonly limitOverrides: Partial<Record<string, number>> = {},
  ) {}

  /** Counts this attempt against every subject; 429 when any of them has already reached the limit. */
  async consume(rule: RateLimitRule, subjects: string[]): Promise<void> {
    await this.reserve(subjects.map((subject) => ({ rule, subject })));
  }

  /**
   * Counts this attempt against every window at once, atomically and all-or-nothing, BEFORE the work it limits
   * (checking first and counting failures afterwards let parallel attempts all pass the check): 429 when any window
   * is already full. A caller whose attempt should not count (a successful sign-in) releases it.
   */
  async reserve(checks: RateLimitCheck[]): Promise<RateLimitReservation> {
    const now = this.now();
    await this.pruneOccasionally(now);
    const windows = checks.map(({ rule, subject }) => ({
      key: keyFor(rule, subject),
      limit: this.limitOverrides[rule.name] ?? rule.limit,
      windowStart: new Date(now.getTime() - rule.windowMs),
    }));
    const full = await this.repository.reserve(windows, now);
    if (full) {
      const { windowMs } = checks[full.index]!.rule;
      const freesAt = (full.state.oldest ?? now).getTime() + windowMs;
      throw new RateLimitedError(Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000)));
    }
    return { keys: windows.map((window) => window.key), at: now };
  }

  async release(reservation: RateLimitReservation): Promise<void> {
    await this.repository.release(reservation.keys, reservation.at);
  }

  private async pruneOccasionally(now: Date) {
    if (now.getTime() - this.lastPrunedAt < PRUNE_EVERY_MS) return;
    this.lastPrunedAt = now.getTime();
    await this.repository.pruneBefore(new Date(now.getTime() - KEEP_HITS_MS));
  }
}

function keyFor(rule: RateLimitRule, subject: string): string {
  return `${rule.name}:${createHash('sha256').update(subject).digest('hex').slice(0, 32)}`;
}
