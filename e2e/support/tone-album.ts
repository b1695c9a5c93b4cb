/**
 * The gapless fixture: one continuous tone (gap-analysis.ts) cut into tracks at sample positions that fall inside
 * AAC frames, uploaded through the normal pipeline (album, song uploads, transcode job) by the demo artist.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext } from 'playwright-core';
import { locateFfmpeg } from '@backbeat/server/media';
import { TONE_AMPLITUDES, TONE_HZ } from './gap-analysis';

const run = promisify(execFile);
const SAMPLE_RATE = 44100;

/** Track lengths in seconds; none is a whole number of 1024-sample frames, so every join cuts a frame. */
export const TONE_TRACK_SECONDS = [3.1234, 2.8771, 3.3339, 2.6543] as const;

export interface ToneAlbum {
  albumId: string;
  title: string;
  songs: Array<{ id: string; title: string; samples: number }>;
}

async function expectOk(
  response: { ok(): boolean; status(): number; text(): Promise<string> },
  what: string,
) {
  if (!response.ok()) throw new Error(`${what} failed: ${response.status()} ${await response.text()}`);
}

/** Writes the tracks as 16-bit WAV files; returns their paths and exact sample counts. */
async function synthesizeTracks(dir: string, trackSeconds: readonly number[]) {
  const { ffmpeg } = await locateFfmpeg();
  const total = trackSeconds.reduce((sum, seconds) => sum + seconds, 0);
  const expression = TONE_HZ.map((hz, k) => `${TONE_AMPLITUDES[k]}*sin(2*PI*${hz}*t)`).join('+');
  const tone = path.join(dir, 'tone.wav');
  await run(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `aevalsrc=${expression}|${expression}:s=${SAMPLE_RATE}:d=${total.toFixed(4)}`],
    ...['-c:a', 'pcm_s16le', tone],
  ]);
  const tracks: Array<{ file: string; samples: number }> = [];
  let start = 0;
  for (const [index, seconds] of trackSeconds.entries()) {
    const samples = Math.round(seconds * SAMPLE_RATE);
    const file = path.join(dir, `tone-${index + 1}.wav`);
    await run(ffmpeg, [
      ...['-v', 'error', '-y', '-i', tone],
      ...['-af', `atrim=start_sample=${start}:end_sample=${start + samples}`, '-c:a', 'pcm_s16le', file],
    ]);
    tracks.push({ file, samples });
    start += samples;
  }
  return tracks;
}

/**
 * Creates the album as the artist signed in on `request` (its own profile), uploads the tracks in order and waits
 * until every one is transcoded.
 */
export async function uploadToneAlbum(
  request: APIRequestContext,
  baseUrl: string,
  title: string,
  trackSeconds: readonly number[] = TONE_TRACK_SECONDS,
): Promise<ToneAlbum> {
  const dir = await mkdtemp(path.join(tmpdir(), 'backbeat-tone-album-'));
  try {
    const tracks = await synthesizeTracks(dir, trackSeconds);
    const created = await request.post(`${baseUrl}/api/albums`, { data: { title } });
    await expectOk(created, 'create album');
    const albumId = ((await created.json()) as { album: { _id: string } }).album._id;
    const songs: ToneAlbum['songs'] = [];
    for (const [index, track] of tracks.entries()) {
      const songTitle = `${title} ${index + 1}`;
      const uploaded = await request.post(`${baseUrl}/api/songs`, {
        multipart: {
          title: songTitle,
          album: albumId,
          audio: { name: `tone-${index + 1}.wav`, mimeType: 'audio/wav', buffer: await readFile(track.file) },
        },
      });
      await expectOk(uploaded, `upload ${songTitle}`);
      const { song } = (await uploaded.json()) as { song: { _id: string } };
      songs.push({ id: song._id, title: songTitle, samples: track.samples });
    }
    for (const song of songs) await waitUntilReady(request, baseUrl, song.id);
    return { albumId, title, songs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function waitUntilReady(
  request: APIRequestContext,
  baseUrl: string,
  songId: string,
  timeoutMs = 180_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await request.get(`${baseUrl}/api/songs/${songId}/status`);
    await expectOk(response, 'song status');
    const { status, failureReason } = (await response.json()) as {
      status: string;
      failureReason: string | null;
    };
    if (status === 'ready') return;
    if (status === 'failed') throw new Error(`song ${songId} failed to transcode: ${failureReason}`);
    if (Date.now() > deadline) throw new Error(`song ${songId} still ${status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
