/**
 * The emulator's clock: real time plus an offset that tests (and the control routes) move forward. Advancing runs
 * whatever falls due (renewals, retries, scheduled cancellations, expiries) through the registered listeners, in order.
 */
export class Clock {
  private offsetMs = 0;
  private readonly listeners: Array<() => Promise<void>> = [];

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  onAdvance(listener: () => Promise<void>): void {
    this.listeners.push(listener);
  }

  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new Error('advance by a positive number of milliseconds');
    this.offsetMs += ms;
    for (const listener of this.listeners) await listener();
  }

  get offset(): number {
    return this.offsetMs;
  }

  restore(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }
}

/** Months later in UTC, clamping the day (31 Jan + 1 month = 28/29 Feb), as the providers bill. */
export function addMonths(from: Date, months: number): Date {
  const day = from.getUTCDate();
  const result = new Date(from.getTime());
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

export const HOUR_MS = 3600 * 1000;
export const DAY_MS = 24 * HOUR_MS;
