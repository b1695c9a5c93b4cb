import { describe, expect, it } from 'vitest';
import { etagMatches, parseByteRange, strongEtag } from './byte-range';
import { buildPlaylistTemplate } from './hls-playlist';

const SONG = '11111111-2222-4333-8444-555555555555';
const GAPLESS = '#EXT-X-BACKBEAT-GAPLESS:PRIMING-SAMPLES=1024,TOTAL-SAMPLES=352800,SAMPLE-RATE=44100';
const PLAYLIST = [
  '#EXTM3U',
  GAPLESS,
  '#EXT-X-VERSION:3',
  '#EXT-X-TARGETDURATION:6',
  '#EXT-X-MEDIA-SEQUENCE:0',
  '#EXT-X-PLAYLIST-TYPE:VOD',
  '#EXT-X-KEY:METHOD=AES-128,URI="key://enc.key",IV=0x0123456789abcdef0123456789abcdef',
  '#EXTINF:6.000000,',
  'seg_0000.ts',
  '#EXTINF:2.000000,',
  'seg_0001.ts',
  '#EXT-X-ENDLIST',
  '',
].join('\n');

describe('buildPlaylistTemplate', () => {
  it('points the key at the tokenised key endpoint and segments at the song base, keeping the IV', () => {
    const rendered = buildPlaylistTemplate(PLAYLIST, SONG).render('abc.def');
    expect(rendered).toContain(
      `#EXT-X-KEY:METHOD=AES-128,URI="/api/stream/hls/${SONG}/key?token=abc.def",IV=0x0123456789abcdef0123456789abcdef`,
    );
    expect(rendered).toContain(`\n/api/stream/hls/${SONG}/seg_0000.ts\n`);
    expect(rendered).toContain(`\n/api/stream/hls/${SONG}/seg_0001.ts\n`);
    expect(rendered).not.toContain('key://');
    expect(rendered.startsWith('#EXTM3U\n')).toBe(true);
  });

  it("passes the transcoder's gapless tag through to the player", () => {
    expect(buildPlaylistTemplate(PLAYLIST, SONG).render('t').split('\n')[1]).toBe(GAPLESS);
  });

  it('renders each token into the same template, URL-encoded', () => {
    const template = buildPlaylistTemplate(PLAYLIST, SONG);
    expect(template.render('one')).toContain('token=one"');
    expect(template.render('a b')).toContain('token=a%20b"');
  });

  it('refuses an unencrypted playlist and entries the transcoder never writes', () => {
    expect(() => buildPlaylistTemplate(PLAYLIST.replace(/#EXT-X-KEY.*\n/, ''), SONG)).toThrow(/EXT-X-KEY/);
    expect(() => buildPlaylistTemplate(PLAYLIST.replace('seg_0001.ts', '../secret.ts'), SONG)).toThrow(
      /Unexpected/,
    );
    expect(() => buildPlaylistTemplate(PLAYLIST.replace('seg_0001.ts', 'https://x/seg.ts'), SONG)).toThrow();
  });

  it('points segments at SEGMENT_BASE_URL plus the immutable media prefix, the key still at the API', () => {
    const prefix = `songs/${SONG}/0123456789abcdef`;
    for (const baseUrl of ['/media', 'https://cdn.example.com/bb']) {
      const rendered = buildPlaylistTemplate(PLAYLIST, SONG, { baseUrl, prefix }).render('t');
      expect(rendered).toContain(`\n${baseUrl}/${prefix}/seg_0000.ts\n`);
      expect(rendered).toContain(`\n${baseUrl}/${prefix}/seg_0001.ts\n`);
      expect(rendered).toContain(`URI="/api/stream/hls/${SONG}/key?token=t"`);
      expect(rendered).not.toContain('/api/stream/hls/' + SONG + '/seg_');
    }
  });

  it('accepts CRLF line endings', () => {
    const rendered = buildPlaylistTemplate(PLAYLIST.replaceAll('\n', '\r\n'), SONG).render('t');
    expect(rendered).toContain(`/api/stream/hls/${SONG}/seg_0000.ts`);
  });
});

describe('parseByteRange', () => {
  const size = 1000;
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    ['bytes=999-999', { start: 999, end: 999 }],
    ['BYTES=0-0', { start: 0, end: 0 }],
  ])('%s -> %o', (header, range) => {
    expect(parseByteRange(header, size)).toEqual(range);
  });

  it.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('%s is unsatisfiable', (header) => {
    expect(parseByteRange(header, size)).toBe('unsatisfiable');
  });

  it.each([undefined, '', 'bytes=', 'bytes=-', 'bytes=5-3', 'items=0-1', 'bytes=0-1,5-6', 'bytes=a-b'])(
    '%s is ignored (whole file)',
    (header) => {
      expect(parseByteRange(header, size)).toBeNull();
    },
  );

  it('treats any range of an empty file as unsatisfiable', () => {
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});

describe('ETags', () => {
  const etag = strongEtag({ size: 4096, mtime: new Date(1_700_000_000_000) });
  it('are strong and change with size or time', () => {
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(strongEtag({ size: 4097, mtime: new Date(1_700_000_000_000) })).not.toBe(etag);
    expect(strongEtag({ size: 4096, mtime: new Date(1_700_000_000_001) })).not.toBe(etag);
  });
  it('match If-None-Match lists, weak forms and *', () => {
    expect(etagMatches(etag, etag)).toBe(true);
    expect(etagMatches(`"other", W/${etag}`, etag)).toBe(true);
    expect(etagMatches('*', etag)).toBe(true);
    expect(etagMatches('"other"', etag)).toBe(false);
    expect(etagMatches(undefined, etag)).toBe(false);
  });
});
