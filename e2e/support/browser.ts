import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const artifactsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

export const viewports = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
} as const;

/** A page that records console errors and failed requests so a test can assert there were none. */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number } = viewports.desktop,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext({ ...options, viewport });
  const page = await context.newPage();
  return { context, page, consoleErrors: trackConsoleErrors(page) };
}

/** Console errors and uncaught exceptions of `page`, collected from now on. */
export function trackConsoleErrors(page: Page): string[] {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // "Failed to load resource" names no URL in its text; the location does.
    const { url } = message.location();
    // The start-up check asks the server once whether anybody is signed in; a guest's answer is a 401 (SPEC 2).
    if (url.endsWith('/api/users/me') && message.text().includes('status of 401')) return;
    consoleErrors.push(url && !message.text().includes(url) ? `${message.text()} [${url}]` : message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  return consoleErrors;
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });
}

/**
 * tsx (the benches' runner) compiles with esbuild's keepNames, which wraps named functions in a `__name` helper;
 * a function sent to the page with `page.evaluate` then needs that helper there too.
 */
export async function allowNamedFunctions(page: Page): Promise<void> {
  await page.evaluate('globalThis.__name ??= (fn) => fn');
}
