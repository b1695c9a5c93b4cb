import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type GatewayName = 'stripe' | 'razorpay' | 'paypal';
export type Log = (entry: object, message: string) => void;

/** Random ids in each provider's style: `pi_3Q…`, `order_N…`, `5O1…`. */
export function randomId(prefix: string, length = 24): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return `${prefix}${out}`;
}

/**
 * The emulator's clock: real time plus an offset that tests (and the control routes) move forward. Advancing runs
 * whatever falls due (renewals, retries, scheduled cancellations) through the registered listeners, in order.
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

/**
 * All state of one provider: plain objects by collection and id, kept in memory and (with a state file) written to
 * disk after each change, so a development restart keeps customers, plans and subscriptions.
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

  get<T extends object>(name: string, id: string): T | undefined {
    return this.collection<T>(name).get(id);
  }

  put<T extends object>(name: string, id: string, value: T): T {
    this.collection<T>(name).set(id, value);
    this.changed();
    return value;
  }

  values<T extends object>(name: string): T[] {
    return [...this.collection<T>(name).values()];
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

/** One attempt to deliver an event. */
export interface Delivery {
  gateway: GatewayName;
  eventId: string;
  type: string;
  attempt: number;
  status: number | null;
  error: string | null;
  at: string;
}

interface Pending {
  gateway: GatewayName;
  eventId: string;
  type: string;
  body: string;
  headers: () => Record<string, string>;
  attempt: number;
}

/**
 * Delivers webhooks like the providers do: POST with the signed headers, never blocking the call that caused the
 * event; a failed attempt (non-2xx, refused, reset) is retried with backoff. Every attempt is logged.
 */
export class WebhookDispatcher {
  readonly deliveries: Delivery[] = [];
  private readonly urls = new Map<GatewayName, string>();
  /** Every event sent, to sign again for a redelivery (the providers redeliver the same event id). */
  private readonly sent = new Map<string, Pending>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters: Array<{ test: (delivery: Delivery) => boolean; resolve: (d: Delivery) => void }> =
    [];
  private closed = false;
  /** Attempts scheduled or running, per gateway (a retry counts until it is made). */
  private readonly outstanding = new Map<GatewayName, number>();

  constructor(
    private readonly retryDelaysMs: number[],
    private readonly log: Log,
  ) {}

  setUrl(gateway: GatewayName, url: string | undefined): void {
    if (url) this.urls.set(gateway, url);
    else this.urls.delete(gateway);
  }

  url(gateway: GatewayName): string | undefined {
    return this.urls.get(gateway);
  }

  /** Queues an event; `headers` is called per attempt (signatures carry the attempt's time). */
  send(
    gateway: GatewayName,
    eventId: string,
    type: string,
    body: string,
    headers: () => Record<string, string>,
  ): void {
    const pending = { gateway, eventId, type, body, headers, attempt: 1 };
    this.sent.set(eventId, pending);
    this.schedule(pending, 0);
  }

  /** Every event sent so far for a gateway, delivered or not, oldest first. */
  events(gateway: GatewayName): Array<{ eventId: string; type: string }> {
    return [...this.sent.values()]
      .filter((p) => p.gateway === gateway)
      .map((p) => ({ eventId: p.eventId, type: p.type }));
  }

  /** The event as it would be delivered now (fresh signature), for tests that post it themselves. */
  signed(
    eventId: string,
  ): { url: string | undefined; body: string; headers: Record<string, string>; type: string } | null {
    const pending = this.sent.get(eventId);
    if (!pending) return null;
    return {
      url: this.urls.get(pending.gateway),
      body: pending.body,
      headers: pending.headers(),
      type: pending.type,
    };
  }

  /** Sends an event again with the same id, as the providers' dashboards and retries do. */
  redeliver(eventId: string): boolean {
    const pending = this.sent.get(eventId);
    if (!pending) return false;
    const attempts = this.deliveries.filter((d) => d.eventId === eventId).length;
    this.schedule({ ...pending, attempt: attempts + 1 }, 0);
    return true;
  }

  waitFor(test: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery> {
    const seen = this.deliveries.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching webhook delivery in time')), timeoutMs);
      this.waiters.push({
        test,
        resolve: (delivery) => {
          clearTimeout(timer);
          resolve(delivery);
        },
      });
    });
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Attempts scheduled or in flight for a gateway: 0 once every event was answered 2xx or given up. */
  pending(gateway: GatewayName): number {
    return this.outstanding.get(gateway) ?? 0;
  }

  private schedule(pending: Pending, delayMs: number): void {
    if (this.closed) return;
    this.outstanding.set(pending.gateway, this.pending(pending.gateway) + 1);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(pending).finally(() =>
        this.outstanding.set(pending.gateway, this.pending(pending.gateway) - 1),
      );
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(pending: Pending): Promise<void> {
    const url = this.urls.get(pending.gateway);
    if (!url) {
      // Like a provider with no endpoint registered: the event exists (and can be redelivered) but is not sent.
      this.log(
        { gateway: pending.gateway, eventId: pending.eventId },
        `webhook ${pending.type}: no endpoint configured, not sent`,
      );
      return;
    }
    let status: number | null = null;
    let error: string | null = null;
    {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...pending.headers() },
          body: pending.body,
          signal: AbortSignal.timeout(30_000),
        });
        status = response.status;
        await response.arrayBuffer().catch(() => undefined);
      } catch (failure) {
        error = failure instanceof Error ? failure.message : String(failure);
      }
    }
    const delivery: Delivery = {
      gateway: pending.gateway,
      eventId: pending.eventId,
      type: pending.type,
      attempt: pending.attempt,
      status,
      error,
      at: new Date().toISOString(),
    };
    this.deliveries.push(delivery);
    this.log(delivery, `webhook ${pending.type} attempt ${pending.attempt}: ${status ?? error}`);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(delivery)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(delivery);
      }
    }
    const ok = status !== null && status >= 200 && status < 300;
    const next = this.retryDelaysMs[pending.attempt - 1];
    if (!ok && next !== undefined) this.schedule({ ...pending, attempt: pending.attempt + 1 }, next);
  }
}

/** The banner every emulator page shows. */
export const TEST_MODE_BANNER = 'Test mode — local gateway emulator, no money moves';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A minimal, readable page in the emulator's own style (each provider tints it). */
export function page(title: string, accent: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;background:#f6f7fb;color:#1a1b25}
.banner{background:#fff3c4;color:#5b4300;padding:8px 16px;font-size:13px;font-weight:600;text-align:center}
main{max-width:420px;margin:0 auto;padding:20px 16px}h1{font-size:20px;margin:8px 0 4px}.muted{color:#5d6070}
.card{background:#fff;border:1px solid #dfe1ea;border-radius:10px;padding:16px;margin-top:14px}
label{display:block;font-size:13px;font-weight:600;margin:10px 0 4px}input,select{width:100%;padding:10px;border:1px solid #c8cbd8;border-radius:6px;font:inherit}
.row{display:flex;gap:8px}.row>*{flex:1}button{width:100%;margin-top:14px;padding:12px;border:0;border-radius:6px;font:inherit;font-weight:700;cursor:pointer;background:${accent};color:#fff}
button.secondary{background:#e7e9f0;color:#1a1b25}.amount{font-size:26px;font-weight:700;margin-top:6px}.hint{font-size:12px;color:#5d6070;margin-top:8px}
.error{color:#b3261e;font-weight:600;margin-top:10px}
</style></head><body><div class="banner" role="note">${TEST_MODE_BANNER}</div><main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`;
}

/** Minor units as the provider shows them to a buyer. */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(
      amount /
        10 **
          (new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
            .maximumFractionDigits ?? 2),
    );
  } catch {
    return `${amount} ${currency}`;
  }
}
