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

export const HOUR_MS = 3600 * 1000;
export const DAY_MS = 24 * HOUR_MS;
