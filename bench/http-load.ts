import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Load generators and reference servers for the benchmarks; every one runs as its own process. */

const here = path.dirname(fileURLToPath(import.meta.url));
const autocannonBin = [
  path.join(here, 'node_modules/.bin/autocannon'),
  path.join(here, '../node_modules/.bin/autocannon'),
].find((candidate) => existsSync(candidate));
/** USER_HZ: /proc reports CPU time in these ticks (100 on every mainstream Linux). */
const CLOCK_TICKS = 100;

export interface LoadResult {
  requests: number;
  requestsPerSec: number;
  p50Ms: number | null;
  p99Ms: number | null;
  mbPerSec: number;
  errors: number;
}

function collect(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function hasCommand(command: string): boolean {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && existsSync(path.join(dir, command)));
}

/** autocannon in a child process, so the client never shares the server's event loop. */
export async function autocannon(
  url: string,
  options: { connections?: number; seconds?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  if (!autocannonBin) throw new Error('autocannon is not installed (npm install -w @backbeat/bench)');
  const args = ['-j', '-c', String(options.connections ?? 50), '-d', String(options.seconds ?? 5)];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  const child = spawn(autocannonBin, [...args, url], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { code, stdout, stderr } = await collect(child);
  if (code !== 0) throw new Error(`autocannon failed (${code}): ${stderr.slice(-500)}`);
  const result = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    throughput: { average: number };
    non2xx: number;
    errors: number;
  };
  return {
    requests: result.requests.total,
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    mbPerSec: result.throughput.average / 1e6,
    errors: result.non2xx + result.errors,
  };
}

const toMs = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);
const bytesPerUnit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

/** wrk -t2 -c50 -dNs with a latency breakdown (the ARCHITECTURE references were measured this way). */
export async function wrk(
  url: string,
  options: { seconds?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const args = ['-t2', '-c50', `-d${options.seconds ?? 5}s`, '--latency'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  const { code, stdout, stderr } = await collect(
    spawn('wrk', [...args, url], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  if (code !== 0) throw new Error(`wrk failed (${code}): ${stderr.slice(-500)}`);
  const latency = (percentile: string) => {
    const match = new RegExp(`^\\s+${percentile}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(stdout);
    return match ? toMs(match[1]!, match[2]!) : null;
  };
  const transfer = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(stdout);
  const errorCounts = [
    /Non-2xx or 3xx responses: (\d+)/,
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/,
  ].flatMap((pattern) => pattern.exec(stdout)?.slice(1).map(Number) ?? []);
  return {
    requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0),
    requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    mbPerSec: transfer
      ? (Number(transfer[1]) * bytesPerUnit[transfer[2] as keyof typeof bytesPerUnit]) / 1e6
      : 0,
    errors: errorCounts.reduce((sum, n) => sum + n, 0),
  };
}

/** user + system CPU of a process from /proc (Linux), in ms; 0 where /proc is missing. */
export async function processCpuMs(pid: number): Promise<number> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

async function childPids(parent: number): Promise<number[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  const parents = await Promise.all(
    pids.map(async (pid) =>
      Number((await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ')[1]),
    ),
  );
  return pids.filter((_, i) => parents[i] === parent).map(Number);
}

/** CPU used so far by this process: the app under test, its libuv threads and PGlite, in ms. */
export function ownCpuMs(): Promise<number> {
  const usage = process.cpuUsage();
  return Promise.resolve((usage.user + usage.system) / 1000);
}

export interface RunningServer {
  /** CPU time (user + system, ms) the server's processes have used so far. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

/** Waits until something answers HTTP on the url. */
async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`${url} did not come up`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('close', () => resolve());
      child.kill('SIGTERM');
    });
}

/** nginx serving `root` on loopback with sendfile, one worker (the app is one Node process too). */
export async function startNginx(root: string, port: number, workDir: string): Promise<RunningServer> {
  const conf = path.join(workDir, 'nginx.conf');
  const temp = (name: string) => `${name}_temp_path ${path.join(workDir, name)};`;
  await writeFile(
    conf,
    `user root;
worker_processes 1;
daemon off;
pid ${path.join(workDir, 'nginx.pid')};
error_log ${path.join(workDir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  types { video/mp2t ts; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { add_header Cache-Control "public, max-age=31536000, immutable"; }
  }
}
`,
  );
  const args = ['-c', conf, '-p', workDir, '-e', path.join(workDir, 'error.log')];
  const child = spawn('nginx', args, { stdio: 'ignore' });
  await waitForHttp(`http://127.0.0.1:${port}/`, child);
  const processes = [child.pid!, ...(await childPids(child.pid!))];
  return {
    cpuMs: async () => (await Promise.all(processes.map(processCpuMs))).reduce((a, b) => a + b, 0),
    stop: stopper(child),
  };
}

/** The reference from ARCHITECTURE section 8: bare node:http + fs.createReadStream in 64 KiB chunks. */
export async function startNodeReference(file: string, port: number): Promise<RunningServer> {
  const script = `
    const http = require('node:http'); const fs = require('node:fs');
    const file = ${JSON.stringify(file)}; const size = fs.statSync(file).size;
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp2t', 'content-length': size });
      fs.createReadStream(file, { highWaterMark: 64 * 1024 }).pipe(res);
    }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  await waitForHttp(`http://127.0.0.1:${port}/`, child);
  return { cpuMs: () => processCpuMs(child.pid!), stop: stopper(child) };
}
