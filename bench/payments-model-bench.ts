/**
 * The payments model at length: the model-based test of each gateway (apps/server/test/payments-model.*.test.ts)
 * with many more random histories than `npm test` runs, printing histories checked per second, the violations found
 * and what the histories reached (paid, refunded, disputed, refused by the ledger...). A violation prints its shrunk
 * history and fails the run.
 *
 *   npm run bench:payments-model -w @backbeat/bench                      # 2,000 histories per gateway
 *   BENCH_HISTORIES=100000 npm run bench:payments-model -w @backbeat/bench
 *   BENCH_GATEWAYS=stripe BENCH_SEED=42 ...                               # one gateway, a fixed seed
 *
 * Each gateway runs as a vitest run of its own (the test file is the one `npm test` runs), on PGlite with the
 * emulator in-process; the figures come from the report each run writes.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const server = path.join(here, '..', 'apps', 'server');
const HISTORIES = Number(process.env.BENCH_HISTORIES ?? 2000);
const GATEWAYS = (process.env.BENCH_GATEWAYS ?? 'stripe,razorpay,paypal').split(',');

interface Report {
  gateway: string;
  histories: number;
  commands: number;
  violations: number;
  seconds: number;
  reached: Record<string, number>;
}

function runSuite(gateway: string, reportFile: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', `test/payments-model.${gateway}.test.ts`], {
      cwd: server,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        MODEL_RUNS: String(HISTORIES),
        MODEL_REPORT: reportFile,
        ...(process.env.BENCH_SEED ? { MODEL_SEED: process.env.BENCH_SEED } : {}),
      },
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const dir = await mkdtemp(path.join(tmpdir(), 'backbeat-model-bench-'));
const rows: Array<Report & { exit: number }> = [];
try {
  for (const gateway of GATEWAYS) {
    const file = path.join(dir, `${gateway}.json`);
    const exit = await runSuite(gateway, file);
    const report = JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) as Report | null;
    rows.push({
      ...(report ?? { gateway, histories: 0, commands: 0, violations: 1, seconds: 0, reached: {} }),
      exit,
    });
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

console.log('\nPayments model: random histories per gateway, invariants checked after every step');
console.log('gateway   histories  commands  seconds  histories/s  violations  reached');
for (const row of rows) {
  const rate = row.seconds > 0 ? (row.histories / row.seconds).toFixed(1) : '-';
  const reached = Object.entries(row.reached)
    .map(([label, count]) => `${label} ${count}`)
    .join(', ');
  console.log(
    `${row.gateway.padEnd(9)} ${String(row.histories).padStart(9)} ${String(row.commands).padStart(9)} ${row.seconds.toFixed(1).padStart(8)} ${rate.padStart(12)} ${String(row.violations).padStart(11)}  ${reached}`,
  );
}
const failed = rows.some((row) => row.violations > 0 || row.exit !== 0);
console.log(`target: ${HISTORIES} histories per gateway, 0 violations -> ${failed ? 'FAILED' : 'met'}`);
process.exit(failed ? 1 : 0);
