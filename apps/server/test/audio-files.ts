import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import { locateFfmpeg, runFfmpeg } from '../src/modules/media';

/** The entries of a ZIP held in memory, by name (read with yauzl, as any unzip tool reads the central directory). */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('not a zip'));
      const entries = new Map<string, Buffer>();
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}

export interface ProbedAudio {
  /** Format tags, names lower-cased. */
  tags: Record<string, string>;
  codec: string | null;
  bitRate: number | null;
  durationSec: number;
  /** An embedded cover picture (attached_pic stream). */
  hasCover: boolean;
  /** MD5 of the decoded samples. */
  audioMd5: string;
}

/** What ffprobe (and ffmpeg, for the samples' MD5) reads from an audio file's bytes. */
export async function probeAudioBytes(bytes: Buffer, extension: string): Promise<ProbedAudio> {
  const tools = await locateFfmpeg();
  const dir = await mkdtemp(path.join(tmpdir(), 'backbeat-probe-'));
  try {
    const file = path.join(dir, `file.${extension}`);
    await writeFile(file, bytes);
    const { stdout } = await runFfmpeg(tools.ffprobe!, [
      ...['-v', 'error', '-of', 'json', '-show_entries'],
      'format=duration:format_tags:stream=codec_name,codec_type,bit_rate:stream_disposition=attached_pic',
      file,
    ]);
    const parsed = JSON.parse(stdout) as {
      format: { duration?: string; tags?: Record<string, string> };
      streams: Array<{
        codec_name: string;
        codec_type: string;
        bit_rate?: string;
        disposition?: { attached_pic?: number };
      }>;
    };
    const audio = parsed.streams.find((stream) => stream.codec_type === 'audio');
    const md5 = await runFfmpeg(tools.ffmpeg, ['-v', 'error', '-i', file, '-map', '0:a', '-f', 'md5', '-']);
    return {
      tags: Object.fromEntries(
        Object.entries(parsed.format.tags ?? {}).map(([key, value]) => [key.toLowerCase(), value]),
      ),
      codec: audio?.codec_name ?? null,
      bitRate: audio?.bit_rate ? Number(audio.bit_rate) : null,
      durationSec: Number(parsed.format.duration),
      hasCover: parsed.streams.some((s) => s.codec_type === 'video' && s.disposition?.attached_pic === 1),
      audioMd5: md5.stdout.trim(),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
