/**
 * Measures demo-catalogue generation: synthesize and transcode 40 songs of 30-120 s, two at a time.
 * Run from apps/server: `npx tsx src/modules/media/synth-bench.ts [path-to-ffmpeg] [--quality]`
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { locateFfmpeg } from './ffmpeg';
import { mapWithConcurrency } from './pool';
import { synthesizeSong } from './synth';
import { transcodeToEncryptedHls } from './transcode';

const SONGS = 40;
const CONCURRENCY = 2;

/**
 * CPU seconds used by finished child processes (Linux /proc; null elsewhere). Unlike wall time it hardly changes
 * when other work shares the machine, so it shows what the songs cost by themselves.
 */
async function childCpuSeconds(): Promise<number | null> {
  try {
    const stat = await readFile('/proc/self/stat', 'utf8');
    // Fields after "pid (comm) "; cutime and cstime are the 14th and 15th of those, in clock ticks (100 per s).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

const args = process.argv.slice(2);
const encoder = args.includes('--quality') ? 'quality' : 'fast';
const tools = await locateFfmpeg(args.find((arg) => !arg.startsWith('--')));
const workDir = await mkdtemp(path.join(os.tmpdir(), 'backbeat-synth-bench-'));
// Durations spread evenly over 30-120 s (average 75 s), shuffled so both workers get a mix of lengths.
const songs = Array.from({ length: SONGS }, (_, seed) => ({
  seed,
  durationSec: 30 + Math.round((((seed * 17) % SONGS) * 90) / (SONGS - 1)),
}));

// Other work on the machine skews wall time; the load average shows whether it was idle.
const loadBefore = loadAverage();
const cpuBefore = await childCpuSeconds();
let synthSec = 0;
let transcodeSec = 0;
const started = performance.now();
try {
  await mapWithConcurrency(songs, CONCURRENCY, async ({ seed, durationSec }) => {
    const wav = path.join(workDir, `song-${seed}.wav`);
    const t0 = performance.now();
    await synthesizeSong(tools, { seed, durationSec, outFile: wav });
    const t1 = performance.now();
    await transcodeToEncryptedHls(tools, { input: wav, outDir: path.join(workDir, `song-${seed}`), encoder });
    synthSec += (t1 - t0) / 1000;
    transcodeSec += (performance.now() - t1) / 1000;
    await rm(wav);
  });
  const totalSec = (performance.now() - started) / 1000;
  const cpuAfter = await childCpuSeconds();
  const audioSec = songs.reduce((sum, song) => sum + song.durationSec, 0);
  console.log(`ffmpeg: ${tools.ffmpeg} (${tools.source}), AAC encoder: ${encoder}`);
  console.log(`${os.cpus().length} CPUs, load average before: ${loadBefore}, after: ${loadAverage()}`);
  console.log(`${SONGS} songs, ${audioSec} s of audio, pool of ${CONCURRENCY}`);
  console.log(`synthesis  ${synthSec.toFixed(1)} s summed over tasks`);
  console.log(`transcode  ${transcodeSec.toFixed(1)} s summed over tasks`);
  if (cpuBefore !== null && cpuAfter !== null) {
    console.log(`ffmpeg CPU ${(cpuAfter - cpuBefore).toFixed(1)} s (user + system of all child processes)`);
  }
  console.log(
    `total      ${totalSec.toFixed(1)} s wall clock (${(audioSec / totalSec).toFixed(0)}x real time)`,
  );
} finally {
  await rm(workDir, { recursive: true, force: true });
}
