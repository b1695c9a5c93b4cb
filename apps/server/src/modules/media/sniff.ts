/**
 * Cheap content checks on a file's first bytes (pass at least 16; 32 is plenty), so an upload with the wrong
 * content is refused before any decoder sees it. The extension and the client's MIME type are never trusted.
 */

const ascii = (buf: Buffer, offset: number, text: string) =>
  buf.length >= offset + text.length && buf.toString('latin1', offset, offset + text.length) === text;

// ISO-BMFF brands that are still images, not audio (AVIF, HEIF).
const IMAGE_BRANDS = new Set([
  'avif',
  'avis',
  'heic',
  'heix',
  'heim',
  'heis',
  'hevc',
  'hevx',
  'mif1',
  'msf1',
]);

function isoBrands(buf: Buffer): string[] {
  if (!ascii(buf, 4, 'ftyp') || buf.length < 12) return [];
  const boxSize = Math.min(buf.readUInt32BE(0), buf.length);
  const brands = [buf.toString('latin1', 8, 12)];
  // Compatible brands follow the minor version (bytes 12-15).
  for (let offset = 16; offset + 4 <= boxSize; offset += 4)
    brands.push(buf.toString('latin1', offset, offset + 4));
  return brands;
}

/** An MPEG-1/2/2.5 Layer I-III frame header, checking the fields that cannot take reserved values. */
function isMpegAudioFrame(buf: Buffer): boolean {
  const [b0, b1, b2] = [buf[0], buf[1], buf[2]];
  if (b0 === undefined || b1 === undefined || b2 === undefined) return false;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 0b11; // 01 is reserved
  const layer = (b1 >> 1) & 0b11; // 00 is reserved (and is what ADTS uses)
  const bitrateIndex = b2 >> 4; // 1111 is invalid
  const sampleRateIndex = (b2 >> 2) & 0b11; // 11 is reserved
  return version !== 0b01 && layer !== 0b00 && bitrateIndex !== 0b1111 && sampleRateIndex !== 0b11;
}

function isAdts(buf: Buffer): boolean {
  // 0xFFF1 = MPEG-4 AAC without CRC, 0xFFF9 = MPEG-2 AAC without CRC (0xFFF0 / 0xFFF8 carry a CRC).
  return buf[0] === 0xff && buf[1] !== undefined && (buf[1] & 0xf6) === 0xf0;
}

export function sniffAudioMagic(firstBytes: Buffer): boolean {
  const buf = firstBytes;
  if (ascii(buf, 0, 'ID3')) return true; // MP3 (or AAC) with an ID3v2 tag
  if (isAdts(buf) || isMpegAudioFrame(buf)) return true;
  if (ascii(buf, 0, 'RIFF') && ascii(buf, 8, 'WAVE')) return true;
  if (ascii(buf, 0, 'fLaC') || ascii(buf, 0, 'OggS')) return true;
  if (ascii(buf, 0, 'FORM') && (ascii(buf, 8, 'AIFF') || ascii(buf, 8, 'AIFC'))) return true;
  if (buf.length >= 4 && buf.readUInt32BE(0) === 0x1a45dfa3) return true; // EBML: WebM / Matroska
  const brands = isoBrands(buf);
  return brands.length > 0 && !brands.some((brand) => IMAGE_BRANDS.has(brand)); // M4A / MP4 / 3GP
}

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

export function sniffImageMagic(buf: Buffer): ImageKind | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (ascii(buf, 0, '\x89PNG\r\n\x1a\n')) return 'png';
  if (ascii(buf, 0, 'RIFF') && ascii(buf, 8, 'WEBP')) return 'webp';
  if (ascii(buf, 0, 'GIF87a') || ascii(buf, 0, 'GIF89a')) return 'gif';
  const brands = isoBrands(buf);
  if (brands.includes('avif') || brands.includes('avis')) return 'avif';
  return null;
}
