import type { Clock } from './clock';
import type { EmulatorResponse } from './router';

interface Saved {
  fingerprint: string;
  response: EmulatorResponse | null;
  savedAt: number;
}

/**
 * Answers kept per idempotency key for a time on the emulator's clock. A key is `in flight` between `begin` and
 * `save`/`forget`; each provider decides what it saves (Stripe: every executed request; PayPal: successes).
 */
export class IdempotencyStore {
  private readonly saved = new Map<string, Saved>();

  constructor(
    private readonly clock: Clock,
    private readonly retentionMs: (scope: string) => number,
  ) {}

  /** The saved entry for a key, if it has not expired. */
  find(scope: string, key: string): Saved | undefined {
    const id = `${scope}\n${key}`;
    const found = this.saved.get(id);
    if (found && this.clock.now().getTime() - found.savedAt > this.retentionMs(scope)) {
      this.saved.delete(id);
      return undefined;
    }
    return found;
  }

  begin(scope: string, key: string, fingerprint: string): void {
    this.saved.set(`${scope}\n${key}`, { fingerprint, response: null, savedAt: this.clock.now().getTime() });
  }

  save(scope: string, key: string, response: EmulatorResponse): void {
    const found = this.saved.get(`${scope}\n${key}`);
    if (found) found.response = response;
  }

  forget(scope: string, key: string): void {
    this.saved.delete(`${scope}\n${key}`);
  }
}

/** Parameters in one canonical spelling, to compare a replay with the first request. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return `${method} ${path} ${canonical(body)}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
