import { describe, expect, it } from 'vitest';
import { AdtsError, summarizeAdts } from './adts';
import { adtsFrame, concat, transportStream } from './gapless.test-fixtures';
import { demuxAudio, TransportStreamError } from './mpeg-ts';

describe('demuxAudio', () => {
  it('returns the AAC stream of a segment, whole across PES and packet boundaries, with its first PTS', () => {
    const adts = concat(Array.from({ length: 40 }, (_, i) => adtsFrame(300 + i)));
    const { adts: out, firstPts } = demuxAudio(transportStream(adts, 2 ** 31 + 12_345, 1000));
    expect(out).toEqual(adts);
    expect(firstPts).toBe(2 ** 31 + 12_345);
  });

  it('refuses bytes that are not a transport stream, or one without an AAC stream', () => {
    expect(() => demuxAudio(new Uint8Array(376))).toThrow(TransportStreamError);
    const video = transportStream(adtsFrame(10), 0, 2930, 0x1b); // the PMT names an H.264 stream
    expect(() => demuxAudio(video)).toThrow('no AAC audio stream');
    const broken = transportStream(adtsFrame(10));
    broken[188 * 2] = 0x00;
    expect(() => demuxAudio(broken)).toThrow('lost sync');
  });
});

describe('summarizeAdts', () => {
  it('counts frames (and raw blocks) and reads the sample rate and channels', () => {
    const data = concat([adtsFrame(100), adtsFrame(50, { blocks: 2 }), adtsFrame(7)]);
    expect(summarizeAdts(data)).toEqual({ frames: 4, sampleRate: 44100, channels: 2 });
  });

  it('refuses a broken header, a truncated frame and a change of sample rate', () => {
    expect(() => summarizeAdts(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(AdtsError);
    expect(() => summarizeAdts(adtsFrame(100).subarray(0, 50))).toThrow('truncated ADTS frame');
    expect(() => summarizeAdts(concat([adtsFrame(10), adtsFrame(10, { rateIndex: 3 })]))).toThrow(
      'sample rate changes',
    );
  });
});
