import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AppDb, Database } from '../db/client';

/**
 * What one process tells the others (API instances and workers sharing one PostgreSQL) so that their in-memory
 * caches drop what a write made stale:
 * - `session`: one session ended (logout); `user`: every session of an account ended, or the account changed or
 *   went away (password reset, account deletion);
 * - `entitlements`: an account's purchases or subscriptions changed, or everyone's (`userId: null`);
 * - `catalog`: a catalogue write or a finished transcode;
 * - `jobs`: jobs were queued (workers look for them now instead of at their next poll).
 */
export type Change =
  | { kind: 'session'; sessionId: string }
  | { kind: 'user'; userId: string }
  | { kind: 'entitlements'; userId: string | null }
  | { kind: 'catalog' }
  | { kind: 'jobs' };

/**
 * `reset`: the process may have missed changes (its listening connection was lost): drop every cache that
 * depends on other processes' writes.
 */
export type ChangeListener = (change: Change | { kind: 'reset' }) => void;

export const CHANGES_CHANNEL = 'backbeat_changes';
/** How long a publisher waits for its own notice to come back (every listener has been sent it by then). */
const ECHO_TIMEOUT_MS = 2_000;

const KINDS = new Set<Change['kind']>(['session', 'user', 'entitlements', 'catalog', 'jobs']);

/** The wire form: `<origin> <sequence> <change as JSON>`; NOTIFY payloads stay far below their 8000-byte limit. */
function parse(payload: string): { origin: string; sequence: number; change: Change } | null {
  const [origin, sequence, ...rest] = payload.split(' ');
  try {
    const change = JSON.parse(rest.join(' ')) as Change;
    if (!origin || !KINDS.has(change?.kind)) return null;
    return { origin, sequence: Number(sequence), change };
  } catch {
    return null;
  }
}

type Log = { warn(object: object, message: string): void };

/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY, one listening connection per process.
 *
 * `publish` runs the local listeners at once (this process never waits for its own change), sends the notice,
 * and resolves when the notice has come back on this process's own listening connection: PostgreSQL signals every
 * listener of a committed NOTIFY together, so by the time a writer answers its client, the other instances have
 * been sent the change, and a request the client sends next to another instance meets a dropped cache.
 * Notices from other processes run the same listeners. Writers publish right after their transaction committed;
 * should a process die in between, the other instances' caches still expire by their TTLs.
 *
 * A lost listening connection is reconnected by the database layer; listeners get `reset` when it drops and when
 * it is back, and in between the publisher does not wait for echoes. On PGlite (one process) the same path runs
 * in-process.
 */
export class ChangeBus {
  private readonly listeners = new Set<ChangeListener>();
  private readonly origin = randomBytes(6).toString('base64url');
  private readonly echoes = new Map<number, () => void>();
  private sequence = 0;
  private stopListening: (() => Promise<void>) | null = null;
  private connected = false;
  private log: Log | null = null;

  constructor(private readonly database: Pick<Database, 'db' | 'listen'>) {}

  on(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts listening; until then (and after `close`) changes stay in this process. */
  async start(log?: Log): Promise<void> {
    if (this.stopListening) return;
    this.log = log ?? null;
    this.stopListening = await this.database.listen(CHANGES_CHANNEL, {
      message: (payload) => this.receive(payload),
      connection: (up) => {
        this.connected = up;
        if (!up) this.releaseEchoes();
        this.log?.warn({ up }, up ? 'change bus reconnected' : 'change bus lost its connection');
        this.emit({ kind: 'reset' });
      },
    });
    this.connected = true;
  }

  async close(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = null;
    this.connected = false;
    this.releaseEchoes();
    await stop?.();
  }

  /**
   * Applies the change here, then tells the other processes. Never throws: a failed notice is logged, and the
   * other processes' caches expire by themselves.
   */
  async publish(change: Change, db: AppDb = this.database.db): Promise<void> {
    this.emit(change);
    if (!this.stopListening) return;
    const sequence = ++this.sequence;
    const payload = `${this.origin} ${sequence} ${JSON.stringify(change)}`;
    let timer: NodeJS.Timeout | undefined;
    const echoed = this.connected
      ? new Promise<void>((resolve) => {
          this.echoes.set(sequence, resolve);
          timer = setTimeout(() => {
            this.echoes.delete(sequence);
            resolve();
          }, ECHO_TIMEOUT_MS);
        })
      : Promise.resolve();
    try {
      await db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${payload})`);
      await echoed;
    } catch (error) {
      this.echoes.delete(sequence);
      this.log?.warn({ err: error, change }, 'could not announce a change to other instances');
    } finally {
      clearTimeout(timer);
    }
  }

  private receive(payload: string): void {
    const notice = parse(payload);
    if (!notice) return;
    if (notice.origin === this.origin) {
      // Our own notice: already applied when published.
      const resolve = this.echoes.get(notice.sequence);
      this.echoes.delete(notice.sequence);
      resolve?.();
      return;
    }
    this.emit(notice.change);
  }

  private emit(change: Change | { kind: 'reset' }): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.log?.warn({ err: error, change }, 'a change listener failed');
      }
    }
  }

  private releaseEchoes(): void {
    for (const resolve of this.echoes.values()) resolve();
    this.echoes.clear();
  }
}
