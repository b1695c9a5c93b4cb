/**
 * Names of downloaded files and ZIP entries: readable ("01 - Harbour Lights.mp3"), safe on every file system
 * (no path separators, reserved or control characters, no trailing dots or spaces), and not too long.
 */
export function safeFileName(name: string, fallback = 'Untitled', maxLength = 120): string {
  const cleaned = name
    .normalize('NFC')
    // Control characters and the characters Windows, macOS or ZIP tools give meaning to.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const short = [...cleaned].slice(0, maxLength).join('').trim();
  return short || fallback;
}

/** "01 - Title.mp3": two digits at least, so the files sort in track order. */
export function trackFileName(position: number, title: string, extension: string): string {
  return `${String(position).padStart(2, '0')} - ${safeFileName(title, 'Track')}.${extension}`;
}

/** Makes names unique inside one archive by numbering repeats: "a.mp3", "a (2).mp3". */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const key = name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count === 1) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)} (${count})${name.slice(dot)}` : `${name} (${count})`;
  });
}

/**
 * `Content-Disposition: attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / RFC 8187),
 * so "Café Sessions.zip" arrives as such in every current browser.
 */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
