import { createHash } from 'node:crypto';
import { AppError } from '../../platform/errors';
import type { RateLimitRepository } from './rate-limit.repository';

export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60 * 1000;

export const AUTH_RATE_LIMITS = {
  /** Failed sign-ins, per IP address and per account e-mail. */
  login: { name: 'login', limit: 10, windowMs: 15 * MINUTE },
  /** Reset requests, per IP address and per account e-mail. */
  forgotPassword: { name: 'forgot-password', limit: 10, windowMs: 15 * MINUTE },
  /** Registration attempts per IP address. */
  register: { name: 'register', limit: 20, windowMs: 60 * MINUTE },
} satisfies Record<string, RateLimitRule>;

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
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
    await this.run(rule, subjects, true);
  }

  /** 429 when any subject has reached the limit; this attempt is not counted (see `recordFailure`). */
  async assertAllowed(rule: RateLimitRule, subjects: string[]): Promise<void> {
    await this.run(rule, subjects, false);
  }

  async recordFailure(rule: RateLimitRule, subjects: string[]): Promise<void> {
    const now = this.now();
    const windowStart = new Date(now.getTime() - rule.windowMs);
    for (const subject of subjects) {
      await this.repository.inWindow(keyFor(rule, subject), windowStart, now, () => true);
    }
  }

  private async run(rule: RateLimitRule, subjects: string[], count: boolean) {
    const limit = this.limitOverrides[rule.name] ?? rule.limit;
    const now = this.now();
    const windowStart = new Date(now.getTime() - rule.windowMs);
    await this.pruneOccasionally(now);
    for (const subject of subjects) {
      const state = await this.repository.inWindow(
        keyFor(rule, subject),
        windowStart,
        now,
        (current) => count && current.hits < limit,
      );
      if (state.hits >= limit) {
        const freesAt = (state.oldest ?? now).getTime() + rule.windowMs;
        throw new RateLimitedError(Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000)));
      }
    }
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
