/**
 * SPEC section 2: outside development the developer-tool shortcuts (F12, Ctrl+Shift+I/J/C, Ctrl+U) and the
 * context menu are blocked. This is a deterrent only; nothing secret lives in the page.
 */
export function isDevToolsShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
) {
  const key = event.key.toLowerCase();
  if (key === 'f12') return true;
  const control = event.ctrlKey || event.metaKey;
  if (control && event.shiftKey && (key === 'i' || key === 'j' || key === 'c')) return true;
  // macOS: Cmd+Option+I/J/C.
  if (event.metaKey && event.altKey && (key === 'i' || key === 'j' || key === 'c')) return true;
  if (control && !event.shiftKey && key === 'u') return true;
  return false;
}

export function installDevToolsGuard(target: Window = window): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (isDevToolsShortcut(event)) {
      event.preventDefault();
      event.stopPropagation();
    }
  };
  const onContextMenu = (event: MouseEvent) => event.preventDefault();
  target.addEventListener('keydown', onKeyDown, { capture: true });
  target.addEventListener('contextmenu', onContextMenu);
  return () => {
    target.removeEventListener('keydown', onKeyDown, { capture: true });
    target.removeEventListener('contextmenu', onContextMenu);
  };
}
