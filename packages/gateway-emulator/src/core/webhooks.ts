import type { GatewayName, Log } from './store';

/**
 * What happens to a provider's events: `deliver` sends each at once (with retries), `hold` keeps them until a test
 * releases them (in any order) or drops them, `drop` never sends them. Events exist in every mode: they are in the
 * provider's event APIs and can be redelivered.
 */
export type WebhookMode = 'deliver' | 'hold' | 'drop';
export const WEBHOOK_MODES: readonly WebhookMode[] = ['deliver', 'hold', 'drop'];

/** An event's delivery state: `sent` (handed to delivery), `held`, `released` (sent from hold), `dropped`. */
export type EventState = 'sent' | 'held' | 'released' | 'dropped';

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

/** An emitted event as a test sees it. */
export interface EmittedEvent {
  gateway: GatewayName;
  eventId: string;
  type: string;
  state: EventState;
  /** Attempts made so far. */
  attempts: number;
  /** Status of the last attempt (null: none answered). */
  lastStatus: number | null;
}

interface Entry {
  gateway: GatewayName;
  eventId: string;
  type: string;
  body: string;
  headers: () => Record<string, string>;
  state: EventState;
  attempts: number;
  lastStatus: number | null;
}

/**
 * Delivers webhooks like the providers do: POST with the signed headers, never blocking the call that caused the
 * event; a failed attempt (non-2xx, refused, reset) is retried with backoff. Every attempt is logged. In `hold` mode
 * nothing runs on a timer: `release` delivers in the order given and resolves when each was answered, and a failed
 * released attempt goes back to the held list (so a model-based test stays deterministic).
 */
export class WebhookDispatcher {
  readonly deliveries: Delivery[] = [];
  private readonly urls = new Map<GatewayName, string>();
  private readonly modes = new Map<GatewayName, WebhookMode>();
  private readonly entries = new Map<string, Entry>();
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

  mode(gateway: GatewayName): WebhookMode {
    return this.modes.get(gateway) ?? 'deliver';
  }

  /** Later events follow the new mode; events already held stay held until released or dropped. */
  setMode(gateway: GatewayName, mode: WebhookMode): void {
    if (!WEBHOOK_MODES.includes(mode)) throw new Error(`unknown webhook mode ${String(mode)}`);
    this.modes.set(gateway, mode);
  }

  /** Records an event and handles it by the gateway's mode; `headers` is called per attempt (fresh signatures). */
  send(
    gateway: GatewayName,
    eventId: string,
    type: string,
    body: string,
    headers: () => Record<string, string>,
  ): void {
    const mode = this.mode(gateway);
    const state: EventState = mode === 'deliver' ? 'sent' : mode === 'hold' ? 'held' : 'dropped';
    const entry: Entry = { gateway, eventId, type, body, headers, state, attempts: 0, lastStatus: null };
    this.entries.set(eventId, entry);
    if (state === 'sent') this.schedule(entry, 0);
  }

  /** Every event of a gateway, oldest first, with its delivery state. */
  events(gateway: GatewayName): EmittedEvent[] {
    return [...this.entries.values()].filter((e) => e.gateway === gateway).map(view);
  }

  held(gateway: GatewayName): EmittedEvent[] {
    return this.events(gateway).filter((e) => e.state === 'held');
  }

  /**
   * Delivers held events, one after the other in the order given (all held ones, oldest first, without ids), and
   * resolves with each attempt once it was answered. Unknown or not-held ids are refused before anything is sent.
   */
  async release(gateway: GatewayName, eventIds?: string[]): Promise<Delivery[]> {
    const targets = this.heldEntries(gateway, eventIds);
    const results: Delivery[] = [];
    for (const entry of targets) {
      entry.state = 'released';
      const delivery = await this.attempt(entry);
      results.push(delivery);
      if (!ok(delivery)) this.afterFailure(entry, delivery);
    }
    return results;
  }

  /** Drops held events (all of the gateway's without ids): they stay in the event lists, never delivered. */
  drop(gateway: GatewayName, eventIds?: string[]): string[] {
    const targets = this.heldEntries(gateway, eventIds);
    for (const entry of targets) entry.state = 'dropped';
    return targets.map((entry) => entry.eventId);
  }

  /** The event as it would be delivered now (fresh signature), for tests that post it themselves. */
  signed(
    eventId: string,
  ): { url: string | undefined; body: string; headers: Record<string, string>; type: string } | null {
    const entry = this.entries.get(eventId);
    if (!entry) return null;
    return {
      url: this.urls.get(entry.gateway),
      body: entry.body,
      headers: entry.headers(),
      type: entry.type,
    };
  }

  /** Sends an event again with the same id, as the providers' dashboards and retries do (whatever its state). */
  redeliver(eventId: string): boolean {
    const entry = this.entries.get(eventId);
    if (!entry) return false;
    this.schedule(entry, 0);
    return true;
  }

  /** Sends an event again now and resolves with the attempt once answered (null: no such event). */
  async redeliverNow(eventId: string): Promise<Delivery | null> {
    const entry = this.entries.get(eventId);
    if (!entry) return null;
    return this.attempt(entry);
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

  /** Attempts scheduled or in flight for a gateway: 0 once every event sent was answered 2xx or given up. */
  pending(gateway: GatewayName): number {
    return this.outstanding.get(gateway) ?? 0;
  }

  private heldEntries(gateway: GatewayName, eventIds: string[] | undefined): Entry[] {
    if (!eventIds)
      return [...this.entries.values()].filter((e) => e.gateway === gateway && e.state === 'held');
    return eventIds.map((id) => {
      const entry = this.entries.get(id);
      if (!entry || entry.gateway !== gateway || entry.state !== 'held') {
        throw new Error(`event ${id} is not held by ${gateway}`);
      }
      return entry;
    });
  }

  /** Held mode keeps a failed event for the next release; otherwise it is retried with backoff. */
  private afterFailure(entry: Entry, delivery: Delivery): void {
    if (this.mode(entry.gateway) === 'hold') {
      entry.state = 'held';
      return;
    }
    const next = this.retryDelaysMs[delivery.attempt - 1];
    if (next !== undefined) this.schedule(entry, next);
  }

  private schedule(entry: Entry, delayMs: number): void {
    if (this.closed) return;
    this.outstanding.set(entry.gateway, this.pending(entry.gateway) + 1);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(entry)
        .then((delivery) => {
          if (!ok(delivery) && delivery.error !== NO_ENDPOINT) this.afterFailure(entry, delivery);
        })
        .finally(() => this.outstanding.set(entry.gateway, this.pending(entry.gateway) - 1));
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(entry: Entry): Promise<Delivery> {
    const url = this.urls.get(entry.gateway);
    const base = { gateway: entry.gateway, eventId: entry.eventId, type: entry.type };
    if (!url) {
      // Like a provider with no endpoint registered: the event exists (and can be redelivered) but is not sent.
      this.log(base, `webhook ${entry.type}: no endpoint configured, not sent`);
      return {
        ...base,
        attempt: entry.attempts,
        status: null,
        error: NO_ENDPOINT,
        at: new Date().toISOString(),
      };
    }
    entry.attempts += 1;
    const attempt = entry.attempts;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...entry.headers() },
        body: entry.body,
        signal: AbortSignal.timeout(30_000),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    entry.lastStatus = status;
    const delivery: Delivery = { ...base, attempt, status, error, at: new Date().toISOString() };
    this.deliveries.push(delivery);
    this.log(delivery, `webhook ${entry.type} attempt ${attempt}: ${status ?? error}`);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(delivery)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(delivery);
      }
    }
    return delivery;
  }
}

const NO_ENDPOINT = 'no endpoint configured';
const ok = (delivery: Delivery) =>
  delivery.status !== null && delivery.status >= 200 && delivery.status < 300;
const view = (entry: Entry): EmittedEvent => ({
  gateway: entry.gateway,
  eventId: entry.eventId,
  type: entry.type,
  state: entry.state,
  attempts: entry.attempts,
  lastStatus: entry.lastStatus,
});
