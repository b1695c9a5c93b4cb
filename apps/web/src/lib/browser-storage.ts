/** Clears everything a script can clear: local storage, session storage and script-readable cookies. */
export function clearBrowserStorage(): void {
  try {
    window.localStorage.clear();
  } catch {
    // Storage can be unavailable (private mode, blocked); nothing to clear then.
  }
  try {
    window.sessionStorage.clear();
  } catch {
    // As above.
  }
  clearReadableCookies();
}

/** Expires every cookie visible to scripts. The HttpOnly session cookie is not visible; the server ends it. */
export function clearReadableCookies(): void {
  if (typeof document === 'undefined' || !document.cookie) return;
  const paths = ['/', window.location.pathname];
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (!name) continue;
    for (const path of paths) {
      document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}`;
    }
  }
}
