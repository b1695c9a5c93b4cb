// `npm test`: every suite, in two lanes at once, then the load run alone.
//
// The browser suite (e2e) waits on real time most of its ten minutes: real audio plays, pages settle, mail
// arrives. It kept about half of one core busy, so run one after another the suites left 1.5 cores idle for the
// longest stage. Here the Node suites (web units, bundle budget, emulator, server on PGlite, then on PostgreSQL)
// run in one lane while e2e runs in the other; each suite is as it was (own databases, own ports, own servers).
// The load run measures latency, so it starts only when both lanes are done, on a machine left to it.
//
//   npm test                  # both lanes, then the load run
//   TEST_LANES=1 npm test     # everything one after another, as before (a machine with one core)
//
// Each line of a suite's output is prefixed with its lane; a table of each suite's time ends the run. The exit
// code is 1 when any suite failed (the others still run to the end, so one run shows every failure; the load run is
// skipped then).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const lanes = [['test:unit', 'test:bundle', 'test:emulator', 'test:server', 'test:server:pg'], ['test:e2e']];
const last = ['test:load'];

const children = new Set();
const results = [];

function run(script, label) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that an interrupted run stops the suite's servers and browsers with it.
      detached: true,
      env: process.env,
    });
    children.add(child);
    for (const stream of [child.stdout, child.stderr]) {
      const out = stream === child.stdout ? process.stdout : process.stderr;
      createInterface({ input: stream }).on('line', (line) => out.write(`${label} ${line}\n`));
    }
    child.on('close', (code, signal) => {
      children.delete(child);
      const seconds = (Date.now() - started) / 1000;
      const ok = code === 0;
      results.push({ script, seconds, ok, detail: ok ? '' : signal ? `killed (${signal})` : `exit ${code}` });
      console.log(`${label} == ${script}: ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s`);
      resolve(ok);
    });
  });
}

async function runLane(scripts, label) {
  let ok = true;
  for (const script of scripts) ok = (await run(script, label)) && ok;
  return ok;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    process.exit(1);
  });
}

const started = Date.now();
const sequential = process.env.TEST_LANES === '1';
const labels = ['[node]', '[e2e] '];
let ok;
if (sequential) {
  ok = await runLane(lanes.flat(), '[test]');
} else {
  console.log(`== ${lanes.map((lane, i) => `${labels[i]} ${lane.join(' > ')}`).join('  |  ')}`);
  ok = (await Promise.all(lanes.map((lane, i) => runLane(lane, labels[i])))).every(Boolean);
}
if (ok) ok = await runLane(last, '[load]');
else console.log(`== ${last.join(', ')} skipped: a suite failed`);

const total = (Date.now() - started) / 1000;
console.log('\n| suite | seconds | result |\n| --- | --- | --- |');
for (const { script, seconds, ok: passed, detail } of results)
  console.log(`| ${script} | ${seconds.toFixed(0)} | ${passed ? 'passed' : `FAILED ${detail}`} |`);
console.log(
  `| npm test (${sequential ? 'one lane' : 'two lanes'}) | ${total.toFixed(0)} | ${ok ? 'passed' : 'FAILED'} |`,
);
process.exitCode = ok ? 0 : 1;
