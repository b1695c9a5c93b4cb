import type { User } from '@backbeat/contract';

/** Lists that an empty server answer must not wipe when the stored copy has values (SPEC section 3). */
const KEPT_WHEN_EMPTY = ['preferredGenres', 'playlist', 'purchaseHistory'] as const;
const LIST_FIELDS = [
  'purchasedSongs',
  'purchasedAlbums',
  'likedsong',
  'preferredGenres',
  'playlist',
  'purchaseHistory',
] as const;

const STORED_USER_KEY = 'user';

/**
 * Merges a user from the server into the stored one. Other server fields are kept as received; missing lists
 * fall back to the stored (or empty) list; empty preferredGenres/playlist/purchaseHistory keep stored values.
 * A different account (another _id) replaces the stored user outright.
 */
export function mergeUser(stored: User | null, incoming: User): User {
  const previous = stored && stored._id === incoming._id ? stored : null;
  const merged: User = { ...(previous ?? {}), ...incoming };
  for (const field of LIST_FIELDS) {
    const value: unknown = incoming[field];
    merged[field] = Array.isArray(value) ? (value as string[]) : (previous?.[field] ?? []);
  }
  if (previous) {
    for (const field of KEPT_WHEN_EMPTY) {
      if (merged[field].length === 0 && previous[field].length > 0) merged[field] = previous[field];
    }
  }
  return merged;
}

function isUser(value: unknown): value is User {
  return typeof value === 'object' && value !== null && typeof (value as { _id?: unknown })._id === 'string';
}

/** The user copy kept in local storage (SPEC section 3). Not a credential: the session is an HttpOnly cookie. */
export function readStoredUser(): User | null {
  try {
    const raw = window.localStorage.getItem(STORED_USER_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isUser(parsed) ? mergeUser(null, parsed) : null;
  } catch {
    return null;
  }
}

export function writeStoredUser(user: User | null): void {
  try {
    if (user) window.localStorage.setItem(STORED_USER_KEY, JSON.stringify(user));
    else window.localStorage.removeItem(STORED_USER_KEY);
  } catch {
    // Storage full or blocked: the in-memory state still works.
  }
}

export function hasPreferredGenres(user: User | null): boolean {
  return Boolean(user && user.preferredGenres.length > 0);
}

export function isAdmin(user: User | null): boolean {
  return user?.role === 'admin';
}
