/** Minor units as a display amount: 99 USD -> "$0.99", 500 JPY -> "¥500"; an unknown code -> "99 XYZ". */
export function formatMoney(amount: number, currency: string): string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
  } catch {
    return `${amount} ${currency}`;
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** Calendar months later, in UTC; the day is clamped to the end of a shorter month (31 Jan + 1 -> 28/29 Feb). */
export function addMonths(from: Date, months: number): Date {
  const day = from.getUTCDate();
  const result = new Date(from.getTime());
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** The number of minor-unit digits of a currency (USD 2, JPY 0, BHD 3). */
export function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** Minor units as the decimal string PayPal's API uses: 999 USD -> "9.99", 500 JPY -> "500". */
export function toDecimalString(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
}

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
