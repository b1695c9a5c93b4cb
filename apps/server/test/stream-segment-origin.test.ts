import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, diskPath, type TestContext } from './test-app';
import { createArtist, createSong, createUser, subscribe, type TestUser } from './stream.fixtures';
import { transcodeTestSong, type TranscodedMedia } from './stream.media-fixtures';

/**
 * SEGMENT_BASE_URL: the playlists point segments at nginx or a CDN serving the media root, the key stays on the
 * API. Played through real nginx in Chromium: e2e/tests/nginx-segments.e2e.ts.
 */
const CDN = 'https://cdn.example.com/backbeat';
let ctx: TestContext;
let media: TranscodedMedia;
let listener: TestUser;
let songId: string;

beforeAll(async () => {
  [ctx, media] = await Promise.all([
    createTestApp({ env: { SEGMENT_BASE_URL: `${CDN}/` } }),
    transcodeTestSong(4),
  ]);
  const db = ctx.database.db;
  listener = await createUser(db);
  const artistId = await createArtist(db, { name: 'Origin Trio' });
  songId = await createSong(db, { artistId, durationSec: media.durationSec });
  await media.install(ctx.app.services.mediaStore, `songs/${songId}/v1`);
  await subscribe(db, { userId: listener.id, artistId, status: 'active', endsInMs: 86_400_000 });
}, 120_000);
afterAll(async () => {
  await ctx.close();
  await media.cleanup();
});

describe('segments served from the media root (SEGMENT_BASE_URL)', () => {
  it('rewrites segment lines to the base plus the immutable media prefix; the key stays on the API', async () => {
    const issued = await ctx.app.inject({
      method: 'GET',
      url: `/api/stream/song/${songId}`,
      headers: listener.headers,
    });
    expect(issued.statusCode).toBe(200);
    const playlist = await ctx.app.inject({ method: 'GET', url: issued.json<{ url: string }>().url });
    expect(playlist.statusCode).toBe(200);
    const lines = playlist.body.split('\n');
    const segments = lines.filter((line) => line && !line.startsWith('#'));
    expect(segments.length).toBe(media.segmentCount);
    for (const [index, line] of segments.entries()) {
      expect(line).toBe(`${CDN}/songs/${songId}/v1/seg_${String(index).padStart(4, '0')}.ts`);
      // The file the line names is the one in the media root (what nginx or the CDN serves).
      const file = line.slice(CDN.length + 1);
      const stored = await readFile(diskPath(ctx.app.services.mediaStore, file));
      expect(stored.equals(await readFile(path.join(media.dir, path.basename(file))))).toBe(true);
    }
    const keyUri = /URI="([^"]+)"/.exec(lines.find((line) => line.startsWith('#EXT-X-KEY'))!)![1]!;
    expect(keyUri.startsWith(`/api/stream/hls/${songId}/key?token=`)).toBe(true);
    const key = await ctx.app.inject({ method: 'GET', url: keyUri });
    expect(key.statusCode).toBe(200);
    expect(key.rawPayload.length).toBe(16);
  });

  it('names the first segment with the song and album addresses, exactly as the playlist does', async () => {
    const issued = await ctx.app.inject({
      method: 'GET',
      url: `/api/stream/song/${songId}`,
      headers: listener.headers,
    });
    const { url, firstSegmentUrl } = issued.json<{ url: string; firstSegmentUrl: string }>();
    const playlist = await ctx.app.inject({ method: 'GET', url });
    const first = playlist.body.split('\n').find((line) => line && !line.startsWith('#'));
    expect(firstSegmentUrl).toBe(first);
    expect(firstSegmentUrl).toBe(`${CDN}/songs/${songId}/v1/seg_0000.ts`);
  });

  it("lets the web app's players fetch from the CDN's origin (CSP connect-src and media-src)", async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/home' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/cdn\.example\.com/);
    expect(csp).toMatch(/media-src [^;]*https:\/\/cdn\.example\.com/);
    expect(csp).not.toContain('/backbeat');
  });
});
