import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nginxMainConfig, renderNginxSite, type NginxSiteOptions } from '../src/ops/nginx-config';
import { freePort } from './postgres-cluster';

/** The shipped nginx site (deploy/nginx/backbeat.conf), rendered and run in the foreground on a free port. */
export interface RunningNginx {
  url: string;
  child: ChildProcess;
  /** The rendered site file, as an operator would install it. */
  site: string;
  /** The master's and workers' process ids (CPU accounting in benchmarks). */
  pids(): number[];
  stop(): Promise<void>;
}

/** The children of the nginx master (its workers), from /proc. */
function workerPids(master: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (parent === master) pids.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

export async function startNginxSite(
  options: Omit<NginxSiteOptions, 'listen'>,
  settings: { workers?: number } = {},
): Promise<RunningNginx> {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(tmpdir(), 'backbeat-nginx-'));
  const site = renderNginxSite({ ...options, listen: `127.0.0.1:${port}` });
  const siteFile = path.join(prefix, 'backbeat.conf');
  writeFileSync(siteFile, site);
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(conf, nginxMainConfig(prefix, siteFile, settings));
  const child = spawn('nginx', ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        rmSync(prefix, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM'); // nginx: fast shutdown of master and workers
    });
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) {
      rmSync(prefix, { recursive: true, force: true });
      throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    }
    try {
      await fetch(`${url}/media/`);
      return { url, child, site, stop, pids: () => [child.pid!, ...workerPids(child.pid!)] };
    } catch {
      if (attempt > 100) {
        await stop();
        throw new Error(`nginx did not come up: ${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
