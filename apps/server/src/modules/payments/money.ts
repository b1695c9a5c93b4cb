/** The server's own money rules (the arithmetic it shares with the gateway emulator is the contract's money.ts). */

import { currencyDigits } from '@backbeat/contract';

/** PayPal's decimal string back to minor units; NaN for anything that is not a plain decimal number. */
export function fromDecimalString(value: string | undefined, currency: string): number {
  if (!value || !/^\d+(\.\d+)?$/.test(value)) return Number.NaN;
  return Math.round(Number(value) * 10 ** currencyDigits(currency));
}

/**
 * The smallest charge each gateway takes, in minor units of the currency: Stripe's "minimum and maximum charge
 * amounts" table (50 cents in most currencies, 30 pence, 50 yen), Razorpay's orders (100 subunits), PayPal's one
 * minor unit. Below it the gateway refuses the order, so Backbeat refuses it first, with a message.
 */
export function minimumCharge(
  gateway: 'stripe' | 'razorpay' | 'paypal' | 'sandbox',
  currency: string,
): number {
  if (gateway === 'razorpay') return 100;
  if (gateway === 'stripe') return STRIPE_MINIMUMS[currency.toUpperCase()] ?? 50;
  if (gateway === 'paypal') return 1;
  return 0;
}

const STRIPE_MINIMUMS: Record<string, number> = { GBP: 30, JPY: 50, HKD: 400, MXN: 1000, AED: 200, SGD: 50 };
