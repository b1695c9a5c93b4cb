import { pick, seededRandom } from './seeded-random';

/** The SVG for a generated 1000x1000 cover: a seeded gradient and shapes, with the title set large at the bottom. */

export const COVER_SIZE = 1000;
const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif";
const MAX_TITLE_LINES = 3;

/** Escapes text for SVG and drops control characters, which XML forbids and would make sharp reject the SVG. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** Greedy word wrap by character count (fonts are not measured); the last line is cut with an ellipsis. */
export function wrapTitle(title: string, maxChars: number, maxLines = MAX_TITLE_LINES): string[] {
  const words = title.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const candidate = current ? `${current} ${word}` : word;
    if (candidate.length <= maxChars || !current) {
      current = candidate;
    } else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  const kept = lines
    .slice(0, maxLines)
    .map((line) => (line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line));
  if (lines.length > maxLines) {
    const last = kept[maxLines - 1] ?? '';
    kept[maxLines - 1] = `${last.slice(0, Math.max(0, maxChars - 1))}…`;
  }
  return kept;
}

function titleFontSize(title: string): number {
  const length = title.trim().length;
  if (length <= 10) return 120;
  if (length <= 24) return 96;
  return 72;
}

const hsl = (hue: number, saturation: number, lightness: number) =>
  `hsl(${Math.round(hue) % 360}, ${saturation}%, ${lightness}%)`;

function shapes(random: () => number, hue: number): string {
  const style = pick(random, ['circles', 'rings', 'stripes'] as const);
  const parts: string[] = [];
  const count = 3 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) {
    const x = Math.round(random() * COVER_SIZE);
    const y = Math.round(random() * COVER_SIZE * 0.7);
    const size = Math.round(120 + random() * 380);
    const colour = hsl(hue + 60 + random() * 120, 70, 55 + random() * 25);
    const opacity = (0.18 + random() * 0.35).toFixed(2);
    if (style === 'circles') {
      parts.push(`<circle cx="${x}" cy="${y}" r="${size}" fill="${colour}" fill-opacity="${opacity}"/>`);
    } else if (style === 'rings') {
      const width = Math.round(10 + random() * 40);
      parts.push(
        `<circle cx="${x}" cy="${y}" r="${size}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-opacity="${opacity}"/>`,
      );
    } else {
      const angle = Math.round(-60 + random() * 120);
      parts.push(
        `<rect x="-500" y="${y}" width="2000" height="${Math.round(size / 4)}" fill="${colour}" fill-opacity="${opacity}" transform="rotate(${angle} 500 500)"/>`,
      );
    }
  }
  return parts.join('\n  ');
}

export function coverSvg(seed: number, title: string, subtitle?: string): string {
  const random = seededRandom(seed);
  const hue = random() * 360;
  const angle = Math.round(random() * 360);
  const fontSize = titleFontSize(title);
  // ~0.6 em per character for a bold sans-serif, inside 80 px margins.
  const lines = wrapTitle(title, Math.floor((COVER_SIZE - 160) / (fontSize * 0.6)));
  const lineHeight = Math.round(fontSize * 1.1);
  const subtitleSize = 44;
  const bottom = COVER_SIZE - 90 - (subtitle ? subtitleSize + 24 : 0);
  const firstBaseline = bottom - (lines.length - 1) * lineHeight;
  const titleText = lines
    .map((line, i) => `<tspan x="80" y="${firstBaseline + i * lineHeight}">${escapeXml(line)}</tspan>`)
    .join('');
  // The darkening starts well above the text so its top edge is invisible.
  const bandTop = firstBaseline - fontSize - 160;

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_SIZE}" height="${COVER_SIZE}" viewBox="0 0 ${COVER_SIZE} ${COVER_SIZE}">
  <defs>
    <linearGradient id="bg" gradientTransform="rotate(${angle} 0.5 0.5)">
      <stop offset="0" stop-color="${hsl(hue, 65, 45)}"/>
      <stop offset="1" stop-color="${hsl(hue + 40 + random() * 100, 70, 22)}"/>
    </linearGradient>
    <linearGradient id="shade" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#000" stop-opacity="0"/>
      <stop offset="1" stop-color="#000" stop-opacity="0.6"/>
    </linearGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  ${shapes(random, hue)}
  <rect x="0" y="${bandTop}" width="${COVER_SIZE}" height="${COVER_SIZE - bandTop}" fill="url(#shade)"/>
  <text font-family="${FONT}" font-weight="700" font-size="${fontSize}" fill="#fff">${titleText}</text>
  ${subtitle ? `<text x="80" y="${COVER_SIZE - 90}" font-family="${FONT}" font-size="${subtitleSize}" fill="#fff" fill-opacity="0.85">${escapeXml(subtitle)}</text>` : ''}
</svg>`;
}
