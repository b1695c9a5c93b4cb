import { escapeHtml } from '../../platform/html';

/**
 * The page a browser gets while Backbeat starts (modules/system/early-listener.ts) or prepares the demo catalogue
 * (preparing-gate.ts): no script (the CSP allows none inline, and none is needed), a meta refresh that turns it into
 * the app at the same address once the server is ready, the design's colours. `role="status"` lets a screen reader
 * announce the figures after each reload.
 */
export interface WaitingPage {
  title: string;
  headline: string;
  /** What the server is doing now (may be empty). */
  step: string;
  /** A bar of `value` of `max`; without it the bar is indeterminate. */
  progress?: { value: number; max: number };
  /** A sentence or two on what is going on. */
  note: string;
  refreshSec: number;
}

export function waitingPage(page: WaitingPage): string {
  const headline = escapeHtml(page.headline);
  const step = escapeHtml(page.step);
  const max = Math.max(1, page.progress?.max ?? 1);
  const bar = page.progress
    ? `<progress max="${max}" value="${Math.min(page.progress.value, max)}">${headline}</progress>`
    : `<progress>${headline}</progress>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${page.refreshSec}">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)} · Backbeat</title>
<style>
  :root { color-scheme: dark; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #0b0b0f; color: #f4f4f6;
    font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { width: min(480px, calc(100vw - 48px)); box-sizing: border-box; padding: 32px; background: #15151c;
    border: 1px solid #2a2a36; border-radius: 10px; }
  .brand { font-size: 16px; font-weight: 700; margin: 0 0 24px; }
  .brand span { display: block; width: 96px; height: 2px; margin-top: 8px;
    background: linear-gradient(90deg, #ff5a36, #ffb020); }
  h1 { font-size: 20px; line-height: 1.3; margin: 0 0 16px; font-variant-numeric: tabular-nums; }
  progress { display: block; width: 100%; height: 8px; appearance: none; border: 0; border-radius: 9999px;
    background: #1e1e28; overflow: hidden; accent-color: #ff5a36; }
  progress::-webkit-progress-bar { background: #1e1e28; }
  progress::-webkit-progress-value { background: #ff5a36; }
  progress::-moz-progress-bar { background: #ff5a36; }
  p { color: #a1a1b0; margin: 16px 0 0; }
  .step { color: #f4f4f6; font-size: 12px; margin-top: 8px; min-height: 18px; }
</style>
</head>
<body>
<main>
  <p class="brand">Backbeat<span aria-hidden="true"></span></p>
  <div role="status">
    <h1>${headline}</h1>
    ${bar}
    <p class="step">${step ? `Now: ${step}` : ''}</p>
  </div>
  <p>${escapeHtml(page.note)}</p>
</main>
</body>
</html>
`;
}
