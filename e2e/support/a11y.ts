import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** axe-core over the whole page (WCAG 2.x A and AA rules); returns the serious and critical violations, readable. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // A toast fades in and out (sonner animates its opacity), and axe measures contrast through the fade: a toast
  // that happened to be leaving read as faint text. Toasts are checked as they rest, at full opacity.
  const resting = await page.addStyleTag({
    content: '[data-sonner-toast] { opacity: 1 !important; transition: none !important; }',
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
