/** ADTS (ISO/IEC 13818-7 / 14496-3) frame headers: enough to count AAC frames and learn their sample rate. */

/** The MIME type of an ADTS AAC stream, as Media Source Extensions name it. */
export const ADTS_MIME = 'audio/aac';

/** Samples per AAC-LC frame per channel. */
export const AAC_FRAME_SAMPLES = 1024;

const SAMPLE_RATES = [
  96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
] as const;

export class AdtsError extends Error {
  override name = 'AdtsError';
}

export interface AdtsSummary {
  /** Raw AAC frames (1024 samples each) in the buffer. */
  frames: number;
  sampleRate: number;
  channels: number;
}

/**
 * Walks the ADTS frames of `data`. Throws AdtsError on a broken header, a truncated frame or a change of sample rate
 * inside the stream (the player lays samples out at one rate).
 */
export function summarizeAdts(data: Uint8Array): AdtsSummary {
  let frames = 0;
  let sampleRate = 0;
  let channels = 0;
  for (let at = 0; at < data.length;) {
    if (at + 7 > data.length) throw new AdtsError(`truncated ADTS header at byte ${at}`);
    if (data[at] !== 0xff || (data[at + 1]! & 0xf6) !== 0xf0) {
      throw new AdtsError(`no ADTS sync word at byte ${at}`);
    }
    const rate = SAMPLE_RATES[(data[at + 2]! >> 2) & 0x0f];
    if (rate === undefined) throw new AdtsError(`reserved sampling frequency at byte ${at}`);
    if (sampleRate !== 0 && rate !== sampleRate) throw new AdtsError('the sample rate changes mid-stream');
    sampleRate = rate;
    channels = ((data[at + 2]! & 0x01) << 2) | (data[at + 3]! >> 6);
    const length = ((data[at + 3]! & 0x03) << 11) | (data[at + 4]! << 3) | (data[at + 5]! >> 5);
    if (length < 7 || at + length > data.length) throw new AdtsError(`truncated ADTS frame at byte ${at}`);
    frames += (data[at + 6]! & 0x03) + 1;
    at += length;
  }
  return { frames, sampleRate, channels };
}
