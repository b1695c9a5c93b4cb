/*
 * Minor-unit money and monthly billing periods: the arithmetic the server and the gateway emulator must agree on
 * to the cent and to the day (a price shown, a decimal string sent to PayPal, a renewal date). Plain functions.
 */

/** The number of minor-unit digits of a currency (USD 2, JPY 0, BHD 3); 2 for a code Intl does not know. */
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

/** Minor units as the decimal string PayPal's API uses: 999 USD -> "9.99", 500 JPY -> "500". */
export function toDecimalString(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
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
