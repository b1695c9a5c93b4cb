/** Builders of the media the gapless player reads, for its unit tests: ADTS frames, transport streams, playlists. */

/** One ADTS frame (no CRC) at 44.1 kHz stereo with `payload` bytes of raw data. */
export function adtsFrame(payload: number, { rateIndex = 4, blocks = 1 } = {}): Uint8Array {
  const length = 7 + payload;
  const frame = new Uint8Array(length);
  frame[0] = 0xff;
  frame[1] = 0xf1; // MPEG-4, layer 0, no CRC
  frame[2] = (1 << 6) | (rateIndex << 2) | 0; // AAC LC, rate, channel config high bit 0
  frame[3] = (2 << 6) | ((length >> 11) & 0x03); // stereo
  frame[4] = (length >> 3) & 0xff;
  frame[5] = ((length & 0x07) << 5) | 0x1f;
  frame[6] = 0xfc | (blocks - 1);
  for (let i = 7; i < length; i += 1) frame[i] = i & 0xff;
  return frame;
}

export function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const PMT_PID = 0x1000;
const AUDIO_PID = 0x100;

function packet(pid: number, unitStart: boolean, payload: Uint8Array, counter: number): Uint8Array {
  const out = new Uint8Array(188).fill(0xff);
  out[0] = 0x47;
  out[1] = (unitStart ? 0x40 : 0) | ((pid >> 8) & 0x1f);
  out[2] = pid & 0xff;
  const room = 184;
  if (payload.length >= room) {
    out[3] = 0x10 | (counter & 0x0f);
    out.set(payload.subarray(0, room), 4);
    return out;
  }
  // A short payload is pushed to the end by an adaptation field of stuffing bytes.
  out[3] = 0x30 | (counter & 0x0f);
  const stuffing = room - payload.length - 1;
  out[4] = stuffing;
  if (stuffing > 0) out[5] = 0x00;
  out.set(payload, 5 + stuffing);
  return out;
}

function psi(tableId: number, body: number[]): Uint8Array {
  const sectionLength = body.length + 5 + 4; // header after length + CRC
  return Uint8Array.from([
    0, // pointer field
    tableId,
    0xb0 | ((sectionLength >> 8) & 0x0f),
    sectionLength & 0xff,
    0x00,
    0x01,
    0xc1,
    0x00,
    0x00,
    ...body,
    0,
    0,
    0,
    0, // CRC (not checked)
  ]);
}

function pes(data: Uint8Array, pts: number): Uint8Array {
  const header = [
    0,
    0,
    1,
    0xc0,
    0,
    0, // unbounded length
    0x80,
    0x80, // PTS only
    5,
    0x21 | ((Math.floor(pts / 2 ** 30) & 0x07) << 1),
    (pts >> 22) & 0xff,
    (((pts >> 15) & 0x7f) << 1) | 1,
    (pts >> 7) & 0xff,
    ((pts & 0x7f) << 1) | 1,
  ];
  return concat([Uint8Array.from(header), data]);
}

/** A transport stream carrying `adts` in PES packets of up to `perPes` bytes, the first at `pts`. */
export function transportStream(
  adts: Uint8Array,
  pts = 126_000,
  perPes = 2930,
  streamType = 0x0f,
): Uint8Array<ArrayBuffer> {
  const packets: Uint8Array[] = [
    packet(0, true, psi(0x00, [0x00, 0x01, 0xe0 | (PMT_PID >> 8), PMT_PID & 0xff]), 0),
    packet(
      PMT_PID,
      true,
      psi(0x02, [
        0xe0 | (AUDIO_PID >> 8),
        AUDIO_PID & 0xff,
        0xf0,
        0x00,
        streamType,
        0xe0 | (AUDIO_PID >> 8),
        AUDIO_PID & 0xff,
        0xf0,
        0x00,
      ]),
      0,
    ),
  ];
  let counter = 0;
  for (let at = 0; at < adts.length; at += perPes) {
    let unit = pes(adts.subarray(at, at + perPes), pts + at);
    let first = true;
    while (unit.length > 0) {
      packets.push(packet(AUDIO_PID, first, unit, counter++));
      unit = unit.subarray(Math.min(184, unit.length));
      first = false;
    }
  }
  return concat(packets);
}

/** AES-128-CBC with PKCS#7, as ffmpeg encrypts HLS segments. */
export async function encrypt(
  data: Uint8Array<ArrayBuffer>,
  rawKey: Uint8Array<ArrayBuffer>,
  iv: Uint8Array<ArrayBuffer>,
) {
  const key = await crypto.subtle.importKey('raw', rawKey, { name: 'AES-CBC' }, false, ['encrypt']);
  return crypto.subtle.encrypt({ name: 'AES-CBC', iv }, key, data);
}

export const IV_HEX = '0x000102030405060708090a0b0c0d0e0f';
export const IV = Uint8Array.from({ length: 16 }, (_, i) => i);

/** A playlist as the server serves it (tokenised key, absolute segment paths). */
export function servedPlaylist(
  durations: number[],
  { gapless = '#EXT-X-BACKBEAT-GAPLESS:PRIMING-SAMPLES=1024,TOTAL-SAMPLES=225941,SAMPLE-RATE=44100' } = {},
): string {
  return [
    '#EXTM3U',
    ...(gapless ? [gapless] : []),
    '#EXT-X-VERSION:3',
    '#EXT-X-TARGETDURATION:6',
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    `#EXT-X-KEY:METHOD=AES-128,URI="/api/stream/hls/s1/key?token=t.k",IV=${IV_HEX}`,
    ...durations.flatMap((duration, index) => [
      `#EXTINF:${duration.toFixed(6)},`,
      `/api/stream/hls/s1/seg_${String(index).padStart(4, '0')}.ts`,
    ]),
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');
}
