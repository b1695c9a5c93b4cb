/** Runs `work` when the page is next idle (or after `timeoutMs` at the latest); returns a cancel. */
export function whenIdle(work: () => void, timeoutMs = 1000): () => void {
  if ('requestIdleCallback' in window) {
    const handle = window.requestIdleCallback(work, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, Math.min(200, timeoutMs));
  return () => clearTimeout(timer);
}
