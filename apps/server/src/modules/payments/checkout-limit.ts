import type { FastifyRequest } from 'fastify';
import { requireUser } from '../../platform/auth';
import { RateLimitedError, type RateLimitRule, type RateLimitService } from '../auth';
import { tooManyOrders } from './payments.service';

const MINUTE = 60 * 1000;

/**
 * Checkouts started, each a call to a provider whose API quota all buyers share: per account (a few accounts must
 * not use up the quota for everyone) and per address (many accounts from one place). Next to the hourly cap on
 * one account's orders (PaymentsService.openOrder).
 */
export const CHECKOUT_RATE_LIMITS = {
  account: { name: 'checkout-account', limit: 30, windowMs: 10 * MINUTE },
  address: { name: 'checkout-address', limit: 120, windowMs: 10 * MINUTE },
} satisfies Record<string, RateLimitRule>;

/** A route hook that counts a checkout against both limits before anything is written or sent to a gateway. */
export function checkoutLimit(limits: RateLimitService) {
  return async (request: FastifyRequest): Promise<void> => {
    const user = await requireUser(request);
    try {
      await limits.reserve([
        { rule: CHECKOUT_RATE_LIMITS.account, subject: `user:${user.id}` },
        { rule: CHECKOUT_RATE_LIMITS.address, subject: `ip:${request.ip}` },
      ]);
    } catch (error) {
      if (error instanceof RateLimitedError) throw tooManyOrders(error.retryAfterSeconds);
      throw error;
    }
  };
}

export type CheckoutLimit = ReturnType<typeof checkoutLimit>;
