import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort, type RunningNginx, startNginxSite } from '@backbeat/server/testing';
import { launchBrowser, openPage, screenshot } from '../support/browser';
import { freshSeededDataDir } from '../support/seed-cache';
import { startServer, type RunningServer } from '../support/server-process';
import { demo } from '../support/session';
import { waitForPlayback } from '../support/playback';

/**
 * The documented production topology: nginx in front (deploy/nginx/backbeat.conf, rendered as an operator does),
 * proxying the API and web app to the instance, and serving the encrypted segments itself from the media root
 * (the instance runs with SEGMENT_BASE_URL=/media). Chromium plays a song through it: playlists and keys come
 * from the API, segments from nginx; nginx hands out nothing else from the media root.
 */
let dataDir: string;
let server: RunningServer;
let nginx: RunningNginx;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const requests: Array<{ url: string; status: number; headers: Record<string, string> }> = [];

beforeAll(async () => {
  dataDir = await freshSeededDataDir();
  // nginx needs the API's port and the API its public (nginx's) address: the API's port is chosen first.
  const apiPort = await freePort();
  nginx = await startNginxSite({
    mediaRoot: path.join(dataDir, 'media'),
    upstreams: [`127.0.0.1:${apiPort}`],
  });
  server = await startServer(dataDir, {
    PORT: String(apiPort),
    PUBLIC_URL: nginx.url,
    SEGMENT_BASE_URL: '/media',
    TRUST_PROXY: 'loopback',
  });
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  page.on('response', (response) => {
    requests.push({ url: response.url(), status: response.status(), headers: response.headers() });
  });
  const login = await context.request.post(`${nginx.url}/api/users/login`, {
    data: { email: demo.admin.email, password: demo.admin.password },
  });
  expect(login.status()).toBe(200);
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop(15_000).catch((error: unknown) => console.error(error));
  await nginx?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function demoAlbumThroughNginx(): Promise<string> {
  const get = async <T>(url: string) => (await (await fetch(`${nginx.url}/api${url}`)).json()) as T;
  const { artists } = await get<{ artists: Array<{ _id: string; name: string }> }>('/artists/all');
  const nova = artists.find((artist) => artist.name === 'Nova Reyes')!;
  const { albums } = await get<{ albums: Array<{ _id: string; title: string }> }>(
    `/albums/artist/${nova._id}`,
  );
  return albums.find((album) => album.title === 'Neon Tides')!._id;
}

describe('segments from nginx, playlists and keys from the API', () => {
  let segmentUrl: URL;

  it('plays a song in Chromium through nginx, every segment fetched from its media location', async () => {
    await page.goto(`${nginx.url}/album/${await demoAlbumThroughNginx()}`);
    await page.getByRole('button', { name: 'Play Harbour Lights', exact: true }).click();
    await waitForPlayback(page, 3);
    await screenshot(page, 'nginx-player');

    const segments = requests.filter((request) => /seg_\d{4}\.ts/.test(request.url));
    expect(segments.length).toBeGreaterThan(1);
    for (const segment of segments) {
      expect(segment.url).toMatch(
        new RegExp(`^${nginx.url}/media/songs/[0-9a-f-]{36}/[0-9a-f]{32}v\\d+/seg_\\d{4}\\.ts$`),
      );
      expect(segment.status).toBe(200);
      expect(segment.headers['content-type']).toBe('video/mp2t');
      expect(segment.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // Only nginx's segment location adds this header; the API never does.
      expect(segment.headers['access-control-allow-origin']).toBe('*');
    }
    const playlists = requests.filter((request) => request.url.includes('/index.m3u8'));
    const keys = requests.filter((request) => /\/key\?token=/.test(request.url));
    expect(playlists.length).toBeGreaterThan(0);
    expect(keys.length).toBeGreaterThan(0);
    for (const request of [...playlists, ...keys]) {
      expect(request.url.startsWith(`${nginx.url}/api/stream/hls/`)).toBe(true);
      expect(request.status).toBe(200);
      expect(request.headers['cache-control']).toMatch(/no-store/);
    }
    segmentUrl = new URL(segments[0]!.url);
    const onDisk = await readFile(path.join(dataDir, 'media', segmentUrl.pathname.slice('/media/'.length)));
    const served = Buffer.from(await (await fetch(segmentUrl)).arrayBuffer());
    expect(served.equals(onDisk)).toBe(true);
  });

  it('serves nothing else from the media root: keys, fallback audio, playlists, listings, other paths', async () => {
    const folder = segmentUrl.pathname.replace(/seg_\d{4}\.ts$/, '');
    const songFolder = folder.replace(/[0-9a-f]{32}v\d+\/$/, '');
    // The version folder also keeps the download master (lossless uploads): bought music only, through the API.
    for (const name of ['enc.key', 'audio.m4a', 'index.m3u8', 'master.flac', '']) {
      const res = await fetch(`${nginx.url}${folder}${name}`);
      expect([res.status, name]).toEqual([404, name]);
      expect(Buffer.from(await res.arrayBuffer()).length).toBeLessThan(1000);
    }
    for (const other of [
      songFolder,
      '/media/',
      '/media/images/',
      `${folder}seg_0000.ts.bak`,
      `${folder}../enc.key`,
    ])
      expect([(await fetch(`${nginx.url}${other}`)).status, other]).toEqual([404, other]);
    // The key exists, and the API hands it out only with a valid stream token.
    const refused = await fetch(`${nginx.url}/api/stream/hls/${songFolder.split('/')[3]}/key?token=forged`);
    expect(refused.status).toBe(403);
  });
});
