import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DRIVERS } from './drivers';
import { commandArbitrary, REGRESSIONS, type Command } from './commands';
import { runHistory } from './model';
import { PROFILE } from './profile';
import { SUBSCRIPTION_DRIVERS } from './subscription-drivers';
import { createWorld, type World } from './world';

/**
 * Histories per gateway: 300 on the embedded database in `npm test`, 50 more on real PostgreSQL (the same SQL; the
 * tier checks it runs there too); the bench (bench:payments-model) asks for many more.
 */
const RUNS = Number(process.env.MODEL_RUNS ?? (process.env.TEST_DB === 'postgres' ? 50 : 300));
/** A run's budget grows with its histories (each takes tens of milliseconds, more on a busy machine). */
const BUDGET_MS = 60_000 + RUNS * 2_000;

/**
 * The model-based test of one gateway (see model.ts): RUNS random histories, each checked after every step, shrunk
 * to a minimal failing history on a violation. With MODEL_REPORT set it writes what it checked (the bench reads it).
 */
export function modelSuite(gateway: keyof typeof DRIVERS): void {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });
  afterAll(() => world?.g.close());

  it(
    `${gateway}: the ledger holds exactly what ${gateway} holds, under any order of its events (${RUNS} histories)`,
    async () => {
      const driver = DRIVERS[gateway](world);
      const subscriptions = SUBSCRIPTION_DRIVERS[gateway](world);
      const started = Date.now();
      let histories = 0;
      let commands = 0;
      const violations: string[] = [];
      const reached: Record<string, number> = {};
      await fc
        .assert(
          fc.asyncProperty(commandArbitrary(), async (steps) => {
            const list = [...steps];
            histories += 1;
            commands += list.length + 1;
            const real = await runHistory(world, driver, subscriptions, list);
            violations.push(...real.violations);
            for (const label of real.reached) reached[label] = (reached[label] ?? 0) + 1;
          }),
          {
            numRuns: RUNS,
            examples: REGRESSIONS.map(({ history }) => [history()] as [Iterable<Command>]),
            ...(process.env.MODEL_SEED ? { seed: Number(process.env.MODEL_SEED) } : {}),
          },
        )
        .finally(() => {
          if (PROFILE && process.env.MODEL_PROFILE) {
            writeFileSync(process.env.MODEL_PROFILE, JSON.stringify(PROFILE));
          }
          if (process.env.MODEL_REPORT) {
            const seconds = (Date.now() - started) / 1000;
            writeFileSync(
              process.env.MODEL_REPORT,
              JSON.stringify({
                gateway,
                histories,
                commands,
                violations: violations.length,
                seconds,
                reached,
              }),
            );
          }
        });
      expect(violations).toEqual([]);
    },
    BUDGET_MS,
  );
}
