import { COVER_SIZE } from './cover-svg';
import { pick, seededRandom } from './seeded-random';

/**
 * The SVG for a generated 1000x1000 artist picture. Artist pictures are shown in circles, so unlike album covers
 * they carry no text (a circle would cut it, and the name is always shown beside the picture) and every shape is
 * centred inside the inscribed circle.
 */

const CENTRE = COVER_SIZE / 2;
/** Shapes stay inside this radius, a margin inside the circle the picture is shown in. */
const ART_RADIUS = CENTRE - 40;

const hsl = (hue: number, saturation: number, lightness: number) =>
  `hsl(${Math.round(hue) % 360}, ${saturation}%, ${lightness}%)`;

const round = (value: number) => Math.round(value * 10) / 10;

function ripples(random: () => number, hue: number): string[] {
  const count = 4 + Math.floor(random() * 4);
  return Array.from({ length: count }, (_, i) => {
    const radius = round(120 + ((ART_RADIUS - 160) * (i + 1)) / count);
    const width = Math.round(6 + random() * 30);
    const opacity = (0.15 + random() * 0.4).toFixed(2);
    return `<circle cx="${CENTRE}" cy="${CENTRE}" r="${radius}" fill="none" stroke="${hsl(hue + 60 + random() * 120, 70, 65)}" stroke-width="${width}" stroke-opacity="${opacity}"/>`;
  });
}

function orbits(random: () => number, hue: number): string[] {
  const count = 5 + Math.floor(random() * 6);
  const size = 50 + random() * 70;
  const distance = ART_RADIUS - size - 20;
  const turn = random() * 360;
  const colour = hsl(hue + 60 + random() * 120, 70, 62);
  return Array.from({ length: count }, (_, i) => {
    const angle = ((turn + (360 * i) / count) * Math.PI) / 180;
    const opacity = (0.3 + random() * 0.45).toFixed(2);
    return `<circle cx="${round(CENTRE + distance * Math.cos(angle))}" cy="${round(CENTRE + distance * Math.sin(angle))}" r="${round(size)}" fill="${colour}" fill-opacity="${opacity}"/>`;
  });
}

function rays(random: () => number, hue: number): string[] {
  const count = 8 + Math.floor(random() * 10);
  const turn = random() * 360;
  const colour = hsl(hue + 60 + random() * 120, 70, 66);
  return Array.from({ length: count }, (_, i) => {
    const length = ART_RADIUS * (0.55 + random() * 0.45);
    const width = Math.round(10 + random() * 24);
    const opacity = (0.2 + random() * 0.4).toFixed(2);
    return `<rect x="${CENTRE - width / 2}" y="${round(CENTRE - length)}" width="${width}" height="${round(length - 150)}" rx="${width / 2}" fill="${colour}" fill-opacity="${opacity}" transform="rotate(${round(turn + (360 * i) / count)} ${CENTRE} ${CENTRE})"/>`;
  });
}

export function portraitSvg(seed: number): string {
  const random = seededRandom(seed);
  const hue = random() * 360;
  const style = pick(random, [ripples, orbits, rays] as const);
  const shapes = style(random, hue);
  const discRadius = Math.round(70 + random() * 50);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_SIZE}" height="${COVER_SIZE}" viewBox="0 0 ${COVER_SIZE} ${COVER_SIZE}">
  <defs>
    <radialGradient id="bg" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="${hsl(hue, 65, 48)}"/>
      <stop offset="1" stop-color="${hsl(hue + 40 + random() * 100, 70, 20)}"/>
    </radialGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  ${shapes.join('\n  ')}
  <circle cx="${CENTRE}" cy="${CENTRE}" r="${discRadius}" fill="${hsl(hue + 180, 60, 78)}" fill-opacity="0.9"/>
  <circle cx="${CENTRE}" cy="${CENTRE}" r="${Math.round(discRadius / 4)}" fill="${hsl(hue, 60, 18)}"/>
</svg>`;
}
