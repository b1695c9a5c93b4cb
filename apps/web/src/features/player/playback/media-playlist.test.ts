import { describe, expect, it } from 'vitest';
import { IV, servedPlaylist } from './gapless.test-fixtures';
import { parseMediaPlaylist, PlaylistError } from './media-playlist';

const URL_BASE = 'http://localhost:3000/api/stream/hls/s1/index.m3u8?token=t.k&nocache=1';

describe('parseMediaPlaylist', () => {
  it('reads segments with their start times, the key with its IV, and the gapless tag', () => {
    const playlist = parseMediaPlaylist(servedPlaylist([6.013967, 6.013968, 1.309378]), URL_BASE);
    expect(playlist.segments.map((segment) => segment.uri)).toEqual([
      'http://localhost:3000/api/stream/hls/s1/seg_0000.ts',
      'http://localhost:3000/api/stream/hls/s1/seg_0001.ts',
      'http://localhost:3000/api/stream/hls/s1/seg_0002.ts',
    ]);
    expect(playlist.segments.map((segment) => segment.start)).toEqual([0, 6.013967, 6.013967 + 6.013968]);
    expect(playlist.segments.map((segment) => segment.sequence)).toEqual([0, 1, 2]);
    expect(playlist.key).toEqual({ uri: 'http://localhost:3000/api/stream/hls/s1/key?token=t.k', iv: IV });
    expect(playlist.gapless).toEqual({ primingSamples: 1024, totalSamples: 225941, sampleRate: 44100 });
  });

  it('has no gapless facts for media transcoded before the tag', () => {
    expect(parseMediaPlaylist(servedPlaylist([6], { gapless: '' }), URL_BASE).gapless).toBeNull();
  });

  it('refuses what the player cannot or must not play', () => {
    const valid = servedPlaylist([6, 2]);
    const cases: Array<[string, string]> = [
      ['not a playlist', 'hello'],
      ['a live list', valid.replace('#EXT-X-ENDLIST', '')],
      ['no segments', valid.replace(/#EXTINF.*\n.*\.ts\n/g, '')],
      ['no key', valid.replace(/#EXT-X-KEY.*\n/, '')],
      ['an unencrypted method', valid.replace('METHOD=AES-128', 'METHOD=NONE')],
      ['SAMPLE-AES', valid.replace('METHOD=AES-128', 'METHOD=SAMPLE-AES')],
      [
        'a second key',
        valid.replace('#EXT-X-ENDLIST', '#EXT-X-KEY:METHOD=AES-128,URI="/other"\n#EXT-X-ENDLIST'),
      ],
      ['a segment before the key', valid.replace(/(#EXT-X-KEY.*\n)(#EXTINF.*\n.*\n)/, '$2$1')],
      ['a bad IV', valid.replace(/IV=0x[0-9a-f]+/, 'IV=0x12')],
      ['a bad gapless tag', valid.replace('TOTAL-SAMPLES=225941', 'TOTAL-SAMPLES=-1')],
    ];
    for (const [, text] of cases) expect(() => parseMediaPlaylist(text, URL_BASE)).toThrow(PlaylistError);
  });
});
