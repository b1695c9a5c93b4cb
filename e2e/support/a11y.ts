import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** axe-core over the whole page (WCAG 2.x A and AA rules); returns the serious and critical violations, readable. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // axe measures contrast through whatever is moving: a toast fading out (sonner animates its opacity) read as faint
  // text, and a button that had just been enabled, half-way through its 150 ms fade from the disabled opacity, failed
  // color-contrast on a loaded machine. Everything is checked as it rests: transitions jump to their end, and toasts
  // sit at full opacity.
  const resting = await page.addStyleTag({
    content:
      '*, *::before, *::after { transition: none !important; }\n' +
      '[data-sonner-toast] { opacity: 1 !important; }',
  });
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
    .finally(() => resting.evaluate((style) => (style as Element).remove()));
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} -> ${violation.nodes
          .slice(0, 4)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}
