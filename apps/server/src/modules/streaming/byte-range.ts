export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * Reads a `Range` header against a file of `size` bytes (RFC 9110 section 14).
 * Returns the one range to serve, 'unsatisfiable' (answer 416), or null to ignore the header and send the whole
 * file: a malformed header or several ranges (which the players we serve never ask for) may be ignored.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/i.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;

  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** A strong validator from size and modification time: the files are immutable, so this changes only with them. */
export const strongEtag = (info: { size: number; mtime: Date }) =>
  `"${info.size.toString(16)}-${Math.floor(info.mtime.getTime()).toString(16)}"`;

/** `If-None-Match` uses the weak comparison: `W/"x"` matches `"x"`; `*` matches anything. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
