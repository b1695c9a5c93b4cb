/**
 * Where a guest was going when a guard sent them to sign in: kept for the tab (session storage, so it survives the
 * social-login round trip through the provider), taken once they are in, and only ever a path of this site.
 */

const STORAGE_KEY = 'backbeat.returnTo';
const MAX_LENGTH = 2048;
/** Pages that are part of signing in: returning to them would loop or show a form to a signed-in user. */
const SIGN_IN_PAGES = [
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/auth/callback',
  '/genres',
];

/**
 * The path (with its query and hash) when `candidate` is a same-origin path of this app worth returning to, else
 * null: never another origin (`//host`, `/\host`, `https:`, `javascript:`), never a sign-in page, never `/`.
 */
export function safeReturnPath(candidate: unknown, origin = window.location.origin): string | null {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > MAX_LENGTH) return null;
  // A path, not a scheme or a protocol-relative address; no backslashes or control characters browsers fold.
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return null;
  if (candidate.includes('\\') || [...candidate].some(isControl)) return null;
  let url: URL;
  try {
    url = new URL(candidate, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const path = url.pathname;
  if (path === '/' || SIGN_IN_PAGES.some((page) => path === page || path.startsWith(`${page}/`))) return null;
  return `${path}${url.search}${url.hash}`;
}

function isControl(character: string): boolean {
  const code = character.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // blocked storage: the guest lands on /home, as before
  }
}

/** Remembers where a guest was going (ignored unless it is a safe path). */
export function rememberReturnPath(path: string): void {
  const safe = safeReturnPath(path);
  if (safe) storage()?.setItem(STORAGE_KEY, safe);
}

/** The remembered path, if still safe, without forgetting it. */
export function peekReturnPath(): string | null {
  return safeReturnPath(storage()?.getItem(STORAGE_KEY) ?? null);
}

/** The remembered path, forgotten as it is taken. */
export function takeReturnPath(): string | null {
  const path = peekReturnPath();
  storage()?.removeItem(STORAGE_KEY);
  return path;
}
