/**
 * A write refused because the disk (or the account's quota) is full. It is the server's condition, not the
 * request's fault: the answer is 507 with a message, the request's partial files are removed, nothing else changes.
 */
export const STORAGE_FULL = {
  status: 507,
  code: 'STORAGE_FULL',
  message:
    "The server's storage is full, so the file could not be saved. Nothing was changed; please try again later.",
} as const;

/** ENOSPC / EDQUOT from the file system, or a media error that already said so, anywhere in the cause chain. */
export function isStorageFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === STORAGE_FULL.code) return true;
    current = cause;
  }
  return false;
}
