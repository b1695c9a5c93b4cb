import type { KeyboardEvent } from 'react';

/** Focuses one of a menu's enabled items, picked from the list and the index of the focused one (-1: none). */
export function focusMenuItem(
  menu: HTMLElement | null,
  pick: (items: HTMLElement[], current: number) => number,
): void {
  const items = Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? []);
  if (items.length === 0) return;
  const current = items.indexOf(document.activeElement as HTMLElement);
  items[(pick(items, current) + items.length) % items.length]?.focus();
}

const MOVES: Record<string, (items: HTMLElement[], current: number) => number> = {
  ArrowDown: (_items, current) => current + 1,
  ArrowUp: (_items, current) => current - 1,
  Home: () => 0,
  End: (items) => items.length - 1,
};

/**
 * A menu's keyboard (WAI-ARIA menu button): arrows move, Home/End jump, Escape closes and returns focus to the
 * button, Tab closes and moves on.
 */
export function onMenuKeyDown(
  event: KeyboardEvent<HTMLElement>,
  menu: HTMLElement | null,
  close: (returnFocus: boolean) => void,
): void {
  const move = MOVES[event.key];
  if (move) {
    event.preventDefault();
    focusMenuItem(menu, move);
  } else if (event.key === 'Escape') {
    event.preventDefault();
    event.stopPropagation();
    close(true);
  } else if (event.key === 'Tab') {
    close(false);
  }
}

/** The look of a menu's items. */
export const menuItemClass =
  'flex w-full items-center gap-3 rounded-control px-3 py-2 text-left text-body text-text transition-colors duration-150 ease-out hover:bg-surface-2 focus-visible:bg-surface-2 disabled:opacity-50';
