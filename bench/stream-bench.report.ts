import type { LoadResult } from './http-load';

export interface Row {
  what: string;
  tool: string;
  note: string;
  result: LoadResult;
  /** CPU time of the serving process(es) per request, in microseconds. */
  cpuUsPerRequest: number | null;
  /** req/s of every round, lowest first, when the row is the median of several. */
  spread?: number[];
}

const fmt = (n: number | null | undefined, digits = 0) =>
  n === null || n === undefined ? '-' : n.toFixed(digits);

/** Prints the rows as a Markdown table, then the app / reference ratios for segments. */
export function printTable(rows: Row[], run: { database: string; seconds: number; rounds: number }) {
  const table = rows.map((row) => ({
    what: row.what,
    tool: row.tool,
    'req/s': fmt(row.result.requestsPerSec),
    rounds: row.spread ? row.spread.join(' / ') : '',
    'p50 ms': fmt(row.result.p50Ms, 2),
    'p99 ms': fmt(row.result.p99Ms, 2),
    'MB/s': fmt(row.result.mbPerSec, 1),
    'CPU us/req': fmt(row.cpuUsPerRequest),
    errors: String(row.result.errors),
    note: row.note,
  }));
  type Cell = keyof (typeof table)[number];
  const columns = Object.keys(table[0] ?? {}) as Cell[];
  const widths = columns.map((c) => Math.max(c.length, ...table.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    `\nStreaming benchmark: database ${run.database}, ${run.seconds} s per run, 50 connections, loopback; ` +
      `segment rows are the median of ${run.rounds} alternating rounds\n`,
  );
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of table) console.log(line(columns.map((c) => row[c])));

  const find = (suffix: string) => rows.find((r) => r.what.endsWith(suffix) && r.tool.startsWith('wrk'));
  const pairs: Array<[Row | undefined, Row | undefined]> = [
    [find('via app'), find('via node:http')],
    [find('via app'), find('via nginx')],
    [find('via topology'), find('via nginx')],
  ];
  for (const [measured, reference] of pairs) {
    if (!measured || !reference) continue;
    const rate = measured.result.requestsPerSec / reference.result.requestsPerSec;
    const cpu =
      measured.cpuUsPerRequest && reference.cpuUsPerRequest
        ? reference.cpuUsPerRequest / measured.cpuUsPerRequest
        : null;
    console.log(
      `segments ${measured.what.split(' via ')[1]} / ${reference.what.split(' via ')[1]}: ` +
        `req/s ratio ${rate.toFixed(2)}, CPU efficiency ratio ${fmt(cpu, 2)} ` +
        '(reference CPU per request / measured CPU per request)',
    );
  }
}
