import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type GatewayName = 'stripe' | 'razorpay' | 'paypal';
export type Log = (entry: object, message: string) => void;
/** A provider's object as it is served: JSON fields by name, with its id. */
export type Obj = Record<string, unknown> & { id: string };

/** Random ids in each provider's style: `pi_3Q…`, `order_N…`, `5O1…`. */
export function randomId(prefix: string, length = 24, alphabet = ALPHANUMERIC): string {
  let out = '';
  for (const byte of randomBytes(length)) out += alphabet[byte % alphabet.length];
  return `${prefix}${out}`;
}
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const UPPER_ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * All state of one provider: objects by collection and id, in creation order, kept in memory and (with a state file)
 * written to disk after each change, so a development restart keeps customers, plans and subscriptions. What the
 * emulator needs to know about an object but the provider never shows (the test buyer, the card's behaviour) lives
 * in a separate `meta` record, so it cannot leak into a response.
 */
export class Store {
  private readonly collections = new Map<string, Map<string, Record<string, unknown>>>();
  private saveTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly file: string | null,
    private readonly extra: { get(): unknown; set(value: unknown): void } | null = null,
  ) {
    if (file) this.load();
  }

  collection<T extends object>(name: string): Map<string, T> {
    let found = this.collections.get(name);
    if (!found) {
      found = new Map();
      this.collections.set(name, found);
    }
    return found as unknown as Map<string, T>;
  }

  get<T extends object = Obj>(name: string, id: string): T | undefined {
    return this.collection<T>(name).get(id);
  }

  put<T extends object>(name: string, id: string, value: T): T {
    this.collection<T>(name).set(id, value);
    this.changed();
    return value;
  }

  save<T extends Obj>(name: string, value: T): T {
    return this.put(name, value.id, value);
  }

  /** Oldest first. */
  values<T extends object = Obj>(name: string): T[] {
    return [...this.collection<T>(name).values()];
  }

  /** The emulator's private notes about an object (created empty on first use). */
  meta<T extends object = Record<string, unknown>>(name: string, id: string): T {
    const key = `${name}:meta`;
    let found = this.get<T>(key, id);
    if (!found) found = this.put(key, id, {} as T);
    return found;
  }

  /** Marks state dirty; it is written (atomically) shortly after. */
  changed(): void {
    if (!this.file || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.flush();
    }, 50);
    this.saveTimer.unref();
  }

  flush(): void {
    if (!this.file) return;
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    const data: Record<string, unknown> = { extra: this.extra?.get() ?? null, collections: {} };
    for (const [name, items] of this.collections) {
      (data.collections as Record<string, unknown>)[name] = Object.fromEntries(items);
    }
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(data), { mode: 0o600 });
    renameSync(temporary, this.file);
  }

  private load(): void {
    let text: string;
    try {
      text = readFileSync(this.file!, 'utf8');
    } catch {
      return;
    }
    const data = JSON.parse(text) as {
      extra?: unknown;
      collections?: Record<string, Record<string, object>>;
    };
    for (const [name, items] of Object.entries(data.collections ?? {})) {
      this.collections.set(name, new Map(Object.entries(items) as Array<[string, Record<string, unknown>]>));
    }
    if (data.extra !== undefined && data.extra !== null) this.extra?.set(data.extra);
  }
}
