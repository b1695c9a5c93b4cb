/** How a card's figure moved against the previous period of the same length. */
export interface FigureChange {
  direction: 'up' | 'down' | 'same';
  /** "+12%", "−8%", "+$4.99" (from nothing, or a move too small for a whole percent), "No change". */
  text: string;
}

const MINUS = '\u2212';

/**
 * The change from `previous` to `current`: a whole percentage where there is one to give, else the difference in the
 * figure's own unit (`format`), signed. Never "Infinity%" from a previous zero.
 */
export function describeChange(
  current: number,
  previous: number,
  format: (value: number) => string = (value) => value.toLocaleString(),
): FigureChange {
  const difference = current - previous;
  if (difference === 0) return { direction: 'same', text: 'No change' };
  const direction = difference > 0 ? 'up' : 'down';
  const sign = difference > 0 ? '+' : MINUS;
  const percent = previous === 0 ? null : Math.round((Math.abs(difference) / Math.abs(previous)) * 100);
  if (percent === null || percent === 0) return { direction, text: `${sign}${format(Math.abs(difference))}` };
  return { direction, text: `${sign}${percent.toLocaleString()}%` };
}

/** Days in an inclusive range of UTC days ("2025-02-01" to "2025-02-28": 28). */
export function daysIn(range: { from: string; to: string }): number {
  return (
    Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / 86_400_000) + 1
  );
}
