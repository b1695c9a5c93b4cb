import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT_PX } from '../player.constants';

const query = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined' || !window.matchMedia) return () => undefined;
  const list = window.matchMedia(query);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

function snapshot(): boolean {
  return typeof window !== 'undefined' && Boolean(window.matchMedia?.(query).matches);
}

/** True below 768 px (SPEC section 9's mobile threshold). */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}
