import type { BrowserContext, Page } from 'playwright-core';

/** The budget of the design brief: every route at 390 and 1280 px. */
export const CLS_BUDGET = 0.1;

interface Shift {
  value: number;
  time: number;
  sources: string[];
}

/**
 * Records the page's layout shifts from its first paint (Chromium's `layout-shift` entries, buffered): every page
 * the context opens afterwards is measured. Shifts within 500 ms of input do not count (the entries say so).
 */
export async function recordLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const describe = (node: Node | null | undefined): string => {
      if (!(node instanceof Element)) return '?';
      const id = node.id ? `#${node.id}` : '';
      const test = node.getAttribute('data-testid');
      const label = node.getAttribute('aria-label');
      const classes = (node.getAttribute('class') ?? '').split(/\s+/).slice(0, 3).join('.');
      return `${node.tagName.toLowerCase()}${id}${test ? `[data-testid=${test}]` : ''}${label ? `[aria-label="${label}"]` : ''}${classes ? `.${classes}` : ''}`;
    };
    const shifts: Array<{ value: number; time: number; sources: string[] }> = [];
    (window as unknown as { __layoutShifts: typeof shifts }).__layoutShifts = shifts;
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<
          PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources?: Array<{ node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }>;
          }
        >) {
          if (entry.hadRecentInput) continue;
          shifts.push({
            value: entry.value,
            time: entry.startTime,
            sources: (entry.sources ?? []).map(
              ({ node, previousRect: from, currentRect: to }) =>
                `${describe(node)} (y ${Math.round(from.y)}->${Math.round(to.y)}, h ${Math.round(from.height)}->${Math.round(to.height)})`,
            ),
          });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    } catch {
      // No layout-shift entries in this browser: nothing is recorded.
    }
  });
}

/**
 * The page's CLS as the Web Vitals define it: the largest session window of shifts (gaps under 1 s, windows up to
 * 5 s), with the shifts of that window and what moved, for a failure message.
 */
export async function cumulativeLayoutShift(page: Page): Promise<{ cls: number; window: Shift[] }> {
  const shifts = await page.evaluate(
    () => (window as unknown as { __layoutShifts?: Shift[] }).__layoutShifts ?? [],
  );
  let best: Shift[] = [];
  let bestValue = 0;
  let current: Shift[] = [];
  let currentValue = 0;
  for (const shift of shifts) {
    const first = current[0];
    const last = current.at(-1);
    if (first && last && (shift.time - last.time > 1000 || shift.time - first.time > 5000)) {
      current = [];
      currentValue = 0;
    }
    current.push(shift);
    currentValue += shift.value;
    if (currentValue > bestValue) {
      bestValue = currentValue;
      best = [...current];
    }
  }
  return { cls: Math.round(bestValue * 1000) / 1000, window: best };
}

/** A readable account of a window's shifts: "0.083 at 1200 ms: footer..., main...". */
export function describeShifts(window: Shift[]): string {
  return window
    .map((shift) => `${shift.value.toFixed(3)} at ${Math.round(shift.time)} ms: ${shift.sources.join(', ')}`)
    .join('\n');
}
