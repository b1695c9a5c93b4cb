/**
 * Time to first audio: in a real Chromium against the real server on loopback, clicks a song's play button and
 * waits for the audio element's `playing` event, for 30 songs of the demo catalogue (each song once, so every
 * click needs a fresh playlist, key and first segment). Within an album the songs are clicked last to first: the
 * player prefetches the song after the one playing, and a click on that one would not be a cold start. Prints
 * median and p95. Targets (issue 14): median <= 100 ms; p95 <= 300 ms (issue 5).
 *
 * Run: npm run bench:ttfa -w @backbeat/bench   (reuses the e2e seeded-data cache and web build)
 * TTFA_TRACE=1 prints each click's requests: name, start after the click + duration, in ms.
 */
import { rmSync } from 'node:fs';
import { launchBrowser } from '../e2e/support/browser';
import { freshSeededDataDir } from '../e2e/support/seed-cache';
import { startServer } from '../e2e/support/server-process';
import { buildWebIfChanged } from '../e2e/support/web-build';

const SONGS = 30;
const ADMIN = { email: 'admin@backbeat.local', password: 'backbeat-admin' };

interface SongSummary {
  _id: string;
  title: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  await buildWebIfChanged();
  const dataDir = await freshSeededDataDir();
  const server = await startServer(dataDir);
  const browser = await launchBrowser();
  try {
    const { baseUrl } = server;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const login = await context.request.post(`${baseUrl}/api/users/login`, { data: ADMIN });
    if (!login.ok()) throw new Error(`login failed: ${login.status()}`);

    // Songs grouped by album, so one album page offers several songs to click.
    const albumsRes = await context.request.get(`${baseUrl}/api/albums?page=1&limit=100`);
    const { albums } = (await albumsRes.json()) as { albums: Array<{ _id: string }> };
    const plan: Array<{ albumId: string; songs: SongSummary[] }> = [];
    let planned = 0;
    for (const album of albums) {
      if (planned >= SONGS) break;
      const res = await context.request.get(`${baseUrl}/api/songs/album/${album._id}`);
      const body = (await res.json()) as SongSummary[] | { songs: SongSummary[] };
      const songs = (Array.isArray(body) ? body : body.songs).slice(0, SONGS - planned).reverse();
      if (songs.length === 0) continue;
      plan.push({ albumId: album._id, songs });
      planned += songs.length;
    }
    if (planned < SONGS) throw new Error(`only ${planned} songs in the demo catalogue, need ${SONGS}`);

    const page = await context.newPage();
    const timings: number[] = [];
    for (const { albumId, songs } of plan) {
      await page.goto(`${baseUrl}/album/${albumId}`, { waitUntil: 'networkidle' });
      for (const song of songs) {
        const button = page.getByRole('button', { name: `Play ${song.title}`, exact: true }).first();
        await button.waitFor({ state: 'visible' });
        await button.evaluate((element) => {
          const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
          if (!audio) throw new Error('no player audio element');
          const started = performance.now();
          const measure = window as unknown as { ttfa?: Promise<number> };
          performance.clearResourceTimings();
          (window as unknown as { ttfaStart: number }).ttfaStart = started;
          measure.ttfa = new Promise<number>((resolve) =>
            audio.addEventListener('playing', () => resolve(performance.now() - started), { once: true }),
          );
          (element as HTMLElement).click();
        });
        const ms = await page.evaluate(() =>
          Promise.race([
            (window as unknown as { ttfa: Promise<number> }).ttfa,
            new Promise<number>((_, reject) =>
              setTimeout(() => reject(new Error('no playing event in 15 s')), 15_000),
            ),
          ]),
        );
        timings.push(ms);
        if (process.env.TTFA_TRACE) {
          const trace = await page.evaluate(() => {
            const start = (window as unknown as { ttfaStart: number }).ttfaStart;
            return performance
              .getEntriesByType('resource')
              .map((entry) => {
                const parts = new URL(entry.name).pathname.split('/');
                // /api/stream/song/{id} -> 'song', /api/stream/hls/{id}/key -> 'key', cover files by name.
                const name =
                  parts.at(-2) === 'song' || parts.at(-2) === 'album' ? parts.at(-2) : parts.at(-1);
                return `${name} ${(entry.startTime - start).toFixed(0)}+${entry.duration.toFixed(0)}`;
              })
              .join(' | ');
          });
          console.log(`${ms.toFixed(0).padStart(4)} ms  ${trace}`);
        }
      }
    }
    const sorted = [...timings].sort((a, b) => a - b);
    const median = percentile(sorted, 50);
    const p95 = percentile(sorted, 95);
    console.log(`time to first audio over ${timings.length} songs (click -> 'playing', Chromium, loopback)`);
    console.log(
      `median ${median.toFixed(0)} ms (target <= 100)  p95 ${p95.toFixed(0)} ms (target <= 300)  ` +
        `min ${sorted[0]!.toFixed(0)} ms  max ${sorted.at(-1)!.toFixed(0)} ms`,
    );
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
