import type { Clock } from './clock';
import { Refusal, type EmulatorRequest, type EmulatorResponse } from './router';

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

  /**
   * Runs a request under its key: a saved answer for the same parameters is replayed, other parameters are a
   * conflict, input refused by validation is answered and not saved; otherwise the request runs and its answer is
   * saved when `keep` says so. With `inFlight`, the key is taken before running (a concurrent retry is refused).
   */
  async run(
    scope: string,
    key: string,
    request: EmulatorRequest,
    steps: {
      validate: () => EmulatorResponse | null;
      run: () => Promise<EmulatorResponse>;
      conflict: () => EmulatorResponse;
      replay: (saved: EmulatorResponse) => EmulatorResponse;
      keep: (answer: EmulatorResponse) => boolean;
      internal: () => EmulatorResponse;
      inFlight?: () => EmulatorResponse;
    },
  ): Promise<EmulatorResponse> {
    const print = fingerprint(request.method, request.path, request.body);
    const saved = this.find(scope, key);
    if (saved && (saved.response || steps.inFlight)) {
      if (saved.fingerprint !== print) return steps.conflict();
      return saved.response ? steps.replay(saved.response) : steps.inFlight!();
    }
    const refused = steps.validate();
    if (refused) return refused;
    this.begin(scope, key, print);
    let answer: EmulatorResponse;
    try {
      answer = await steps.run();
    } catch (error) {
      answer = error instanceof Refusal ? error.response : steps.internal();
    }
    if (steps.keep(answer)) this.save(scope, key, answer);
    else this.forget(scope, key);
    return answer;
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

/** The steps a provider gives `IdempotencyStore.run`, less the request's own. */
export type IdempotencySteps = Omit<Parameters<IdempotencyStore['run']>[3], 'validate' | 'run'>;

/**
 * A dialect's `execute` for a provider whose POSTs take an idempotency header: without the header a request just
 * runs; with it, `store.run` decides (scoped by `scope`, with the provider's own answers from `steps`).
 */
export function idempotentExecute(
  store: IdempotencyStore,
  header: string,
  scope: (request: EmulatorRequest) => string,
  steps: (
    request: EmulatorRequest,
    key: string,
  ) => IdempotencySteps & { wrap?: (answer: EmulatorResponse) => EmulatorResponse },
) {
  return async (
    request: EmulatorRequest,
    _caller: unknown,
    validate: () => EmulatorResponse | null,
    run: () => Promise<EmulatorResponse>,
  ): Promise<EmulatorResponse> => {
    const key = request.headers[header];
    if (typeof key !== 'string' || request.method !== 'POST') return run();
    const own = steps(request, key);
    const wrap = own.wrap ?? ((answer: EmulatorResponse) => answer);
    return store.run(scope(request), key, request, { ...own, validate, run: async () => wrap(await run()) });
  };
}
