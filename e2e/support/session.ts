import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';

export const demo = {
  admin: { email: 'admin@backbeat.local', password: 'backbeat-admin', name: 'Ada Admin' },
  artist: { email: 'artist@backbeat.local', password: 'backbeat-artist', name: 'Nova Reyes' },
  listener: { email: 'listener@backbeat.local', password: 'backbeat-listener', name: 'Lee Listener' },
} as const;

export interface Credentials {
  email: string;
  password: string;
  name: string;
}

/** A new, unique person for one test. */
export function newPerson(prefix = 'e2e'): Credentials {
  const id = randomUUID().slice(0, 8);
  return {
    email: `${prefix}.${id}@example.com`,
    password: `pw-${id}-long-enough`,
    name: `E2E ${prefix} ${id}`,
  };
}

const api = (path: string) => `${inject('baseUrl')}/api${path}`;

async function expectOk(
  response: { ok(): boolean; status(): number; text(): Promise<string> },
  what: string,
) {
  if (!response.ok()) throw new Error(`${what} failed: ${response.status()} ${await response.text()}`);
}

/** Registers through the API; the context's cookie jar then holds the session, as after a browser sign-up. */
export async function registerViaApi(context: BrowserContext, person: Credentials = newPerson()) {
  await expectOk(await context.request.post(api('/users/register'), { data: person }), 'register');
  return person;
}

export async function loginViaApi(context: BrowserContext, person: Pick<Credentials, 'email' | 'password'>) {
  const { email, password } = person;
  await expectOk(await context.request.post(api('/users/login'), { data: { email, password } }), 'login');
}

export async function setGenresViaApi(context: BrowserContext, genres: string[]) {
  await expectOk(
    await context.request.put(api('/users/update-genres'), { data: { genres } }),
    'update genres',
  );
}

export async function likeSongViaApi(context: BrowserContext, songId: string) {
  await expectOk(await context.request.put(api(`/users/likedsong/${songId}`)), 'like a song');
}

/** A signed-in listener with preferred genres, ready for the main screens. */
export async function signedInListener(context: BrowserContext, genres = ['Electronic', 'Jazz']) {
  const person = await registerViaApi(context);
  await setGenresViaApi(context, genres);
  return person;
}

/** Fills and submits the login form on /login. */
export async function loginViaUi(page: Page, person: Pick<Credentials, 'email' | 'password'>) {
  await page.locator('input[name="email"]').fill(person.email);
  await page.locator('input[name="password"]').fill(person.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** Waits for a toast (sonner, top centre) with exactly this text. */
export async function expectToast(page: Page, text: string) {
  await page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor({ state: 'visible' });
}

/** The path the app settled on, once the URL matches `expected`. */
export async function expectPath(page: Page, expected: string | RegExp, timeout = 15_000) {
  const base = inject('baseUrl');
  const matches = (pathname: string) =>
    typeof expected === 'string' ? pathname === expected : expected.test(pathname);
  await page.waitForURL((url) => url.origin === new URL(base).origin && matches(url.pathname), { timeout });
  // The address changes as a navigation starts; the screen follows once its code is there. Wait for the screen
  // (the app marks the path it has drawn on <html data-screen>), so the next step acts on the new page.
  await page.waitForFunction(
    ([source, flags]) => {
      const drawn = document.documentElement.dataset.screen;
      if (drawn === undefined || drawn !== window.location.pathname) return false;
      return flags === null ? drawn === source : new RegExp(source, flags).test(drawn);
    },
    typeof expected === 'string' ? ([expected, null] as const) : ([expected.source, expected.flags] as const),
    { timeout },
  );
}
