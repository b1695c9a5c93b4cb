/**
 * The part of an MPEG transport stream the player needs: the AAC (ADTS) elementary stream of an HLS segment, as the
 * server's transcoder writes it (one program, one audio stream). ISO/IEC 13818-1: 188-byte packets, a PAT naming the
 * PMT, a PMT naming the audio stream's PID, PES packets carrying ADTS frames.
 */

const PACKET_SIZE = 188;
const SYNC_BYTE = 0x47;
const PAT_PID = 0;
/** PMT stream_type of AAC in ADTS framing. */
const STREAM_TYPE_ADTS_AAC = 0x0f;

export class TransportStreamError extends Error {
  override name = 'TransportStreamError';
}

export interface AudioElementaryStream {
  /** The ADTS frames, concatenated in stream order. */
  adts: Uint8Array;
  /** The presentation time stamp of the first PES packet, in 90 kHz ticks (null if none carried one). */
  firstPts: number | null;
}

/** Where a packet's payload starts, or -1 when it has none. */
function payloadOffset(data: Uint8Array, packet: number): number {
  const adaptation = (data[packet + 3]! >> 4) & 0x3;
  if ((adaptation & 0x1) === 0) return -1;
  const offset = adaptation === 0x3 ? packet + 5 + data[packet + 4]! : packet + 4;
  return offset < packet + PACKET_SIZE ? offset : -1;
}

/** The section a PSI payload carries, after its pointer field (only sections starting in this packet are read). */
function sectionStart(data: Uint8Array, payload: number): number {
  return payload + 1 + data[payload]!;
}

function readPatPmtPid(data: Uint8Array, payload: number, end: number): number | null {
  const section = sectionStart(data, payload);
  const sectionLength = ((data[section + 1]! & 0x0f) << 8) | data[section + 2]!;
  // Program loop: from after the 8-byte header to before the CRC.
  const loopEnd = Math.min(section + 3 + sectionLength - 4, end);
  for (let entry = section + 8; entry + 4 <= loopEnd; entry += 4) {
    const program = (data[entry]! << 8) | data[entry + 1]!;
    if (program !== 0) return ((data[entry + 2]! & 0x1f) << 8) | data[entry + 3]!;
  }
  return null;
}

function readPmtAudioPid(data: Uint8Array, payload: number, end: number): number | null {
  const section = sectionStart(data, payload);
  const sectionLength = ((data[section + 1]! & 0x0f) << 8) | data[section + 2]!;
  const programInfoLength = ((data[section + 10]! & 0x0f) << 8) | data[section + 11]!;
  const loopEnd = Math.min(section + 3 + sectionLength - 4, end);
  for (let entry = section + 12 + programInfoLength; entry + 5 <= loopEnd;) {
    const streamType = data[entry]!;
    const pid = ((data[entry + 1]! & 0x1f) << 8) | data[entry + 2]!;
    if (streamType === STREAM_TYPE_ADTS_AAC) return pid;
    entry += 5 + (((data[entry + 3]! & 0x0f) << 8) | data[entry + 4]!);
  }
  return null;
}

/** The 33-bit PTS at `at` (5 bytes with marker bits). */
function readTimestamp(data: Uint8Array, at: number): number {
  return (
    (data[at]! & 0x0e) * 536870912 + // bits 32..30, shifted left 29 (as a float: past 2^31)
    (data[at + 1]! << 22) +
    ((data[at + 2]! & 0xfe) << 14) +
    (data[at + 3]! << 7) +
    ((data[at + 4]! & 0xfe) >> 1)
  );
}

/**
 * Extracts the AAC elementary stream of a (decrypted) segment. Throws TransportStreamError when the bytes are not a
 * transport stream with an ADTS AAC stream.
 */
export function demuxAudio(data: Uint8Array): AudioElementaryStream {
  if (data.length < PACKET_SIZE || data[0] !== SYNC_BYTE) {
    throw new TransportStreamError('not an MPEG transport stream');
  }
  let pmtPid: number | null = null;
  let audioPid: number | null = null;
  let firstPts: number | null = null;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let packet = 0; packet + PACKET_SIZE <= data.length; packet += PACKET_SIZE) {
    if (data[packet] !== SYNC_BYTE) throw new TransportStreamError(`lost sync at byte ${packet}`);
    const unitStart = (data[packet + 1]! & 0x40) !== 0;
    const pid = ((data[packet + 1]! & 0x1f) << 8) | data[packet + 2]!;
    const payload = payloadOffset(data, packet);
    const end = packet + PACKET_SIZE;
    if (payload < 0) continue;
    if (pid === PAT_PID) {
      if (unitStart) pmtPid = readPatPmtPid(data, payload, end) ?? pmtPid;
    } else if (pid === pmtPid) {
      if (unitStart) audioPid = readPmtAudioPid(data, payload, end) ?? audioPid;
    } else if (pid === audioPid) {
      let start = payload;
      if (unitStart) {
        if (data[payload] !== 0 || data[payload + 1] !== 0 || data[payload + 2] !== 1) {
          throw new TransportStreamError('a PES packet without its start code');
        }
        const hasPts = (data[payload + 7]! & 0x80) !== 0;
        if (hasPts && firstPts === null) firstPts = readTimestamp(data, payload + 9);
        start = payload + 9 + data[payload + 8]!;
      }
      if (start < end) {
        chunks.push(data.subarray(start, end));
        total += end - start;
      }
    }
  }
  if (audioPid === null) throw new TransportStreamError('no AAC audio stream in the segment');
  const adts = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    adts.set(chunk, at);
    at += chunk.length;
  }
  return { adts, firstPts };
}
