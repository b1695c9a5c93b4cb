import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { ChangeBus, CHANGES_CHANNEL, type ChangeListener } from '../src/platform/change-bus';
import { openTestDatabase } from './test-app';

/**
 * The change bus on either database: two buses on one database stand for two processes (each has its own origin,
 * and on PostgreSQL its own listening connection). Across real processes: scale-out.pg.test.ts.
 */
let database: Database;
let drop: () => Promise<void>;
const buses: ChangeBus[] = [];

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  await drop();
});

async function startedBus(): Promise<{ bus: ChangeBus; heard: Parameters<ChangeListener>[0][] }> {
  const bus = new ChangeBus(database);
  const heard: Parameters<ChangeListener>[0][] = [];
  bus.on((change) => heard.push(change));
  await bus.start();
  buses.push(bus);
  return { bus, heard };
}

describe('change bus', () => {
  it('applies a change at once in the publishing process, and has reached the other one when publish resolves', async () => {
    const a = await startedBus();
    const b = await startedBus();
    const publishing = a.bus.publish({ kind: 'session', sessionId: 's-1' });
    // Local listeners run before the notice is even sent.
    expect(a.heard).toEqual([{ kind: 'session', sessionId: 's-1' }]);
    await publishing;
    await a.bus.publish({ kind: 'entitlements', userId: null });
    // A's own notices come back to it but are not applied twice.
    expect(a.heard).toEqual([
      { kind: 'session', sessionId: 's-1' },
      { kind: 'entitlements', userId: null },
    ]);
    await expect.poll(() => b.heard).toEqual(a.heard);
  });

  it('ignores notices on its channel that are not changes it knows', async () => {
    const a = await startedBus();
    const b = await startedBus();
    await database.db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, 'not a change')`);
    await database.db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${'x 1 {"kind":"drop-tables"}'})`);
    await a.bus.publish({ kind: 'catalog' });
    await expect.poll(() => b.heard).toEqual([{ kind: 'catalog' }]);
  });

  it('keeps changes in the process before start and after close, without failing the writer', async () => {
    const bus = new ChangeBus(database);
    const heard: unknown[] = [];
    bus.on((change) => heard.push(change));
    await bus.publish({ kind: 'jobs' });
    await bus.start();
    await bus.close();
    await bus.publish({ kind: 'user', userId: 'u-1' });
    expect(heard).toEqual([{ kind: 'jobs' }, { kind: 'user', userId: 'u-1' }]);
  });
});
