import { createDecipheriv } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { locateFfmpeg, runFfmpeg } from '../src/modules/media';

/**
 * Plays an HLS address through the API as a player would: the playlist, the key its #EXT-X-KEY names, every
 * segment, decrypted (AES-128-CBC) and decoded by ffmpeg. Returns the decoded length in seconds and the key.
 */
export async function playHlsThroughApi(
  app: FastifyInstance,
  playlistUrl: string,
  headers: Record<string, string> = {},
): Promise<{ seconds: number; key: Buffer; keyUrl: string; segmentUrls: string[] }> {
  const playlist = await app.inject({ method: 'GET', url: playlistUrl, headers });
  if (playlist.statusCode !== 200) throw new Error(`playlist: ${playlist.statusCode} ${playlist.body}`);
  const keyLine = playlist.body.split('\n').find((line) => line.startsWith('#EXT-X-KEY:'))!;
  const keyUrl = /URI="([^"]+)"/.exec(keyLine)![1]!;
  const iv = Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(keyLine)![1]!, 'hex');
  const keyResponse = await app.inject({ method: 'GET', url: keyUrl, headers });
  if (keyResponse.statusCode !== 200) throw new Error(`key: ${keyResponse.statusCode} ${keyResponse.body}`);
  const key = keyResponse.rawPayload;
  const segmentUrls = playlist.body.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
  const clear: Buffer[] = [];
  for (const url of segmentUrls) {
    const segment = await app.inject({ method: 'GET', url });
    if (segment.statusCode !== 200) throw new Error(`segment ${url}: ${segment.statusCode}`);
    const decipher = createDecipheriv('aes-128-cbc', key, iv);
    clear.push(decipher.update(segment.rawPayload), decipher.final());
  }
  const tools = await locateFfmpeg();
  const work = await mkdtemp(path.join(tmpdir(), 'backbeat-hls-decode-'));
  try {
    const ts = path.join(work, 'joined.ts');
    await writeFile(ts, Buffer.concat(clear));
    const wav = path.join(work, 'decoded.wav');
    await runFfmpeg(tools.ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', ts, wav]);
    const { stdout } = await runFfmpeg(tools.ffprobe!, [
      ...['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav],
    ]);
    return { seconds: Number(stdout.trim()), key, keyUrl, segmentUrls };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
