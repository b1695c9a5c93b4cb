import { DEFAULT_VOLUME, PLAYER_VOLUME_KEY } from './player.constants';
import { clampVolume } from './player.rules';

/** The stored volume (0..1) under 'player-volume', or the 0.5 default when none or unreadable. */
export function readStoredVolume(storage: Pick<Storage, 'getItem'> | null = safeLocalStorage()): number {
  const raw = storage?.getItem(PLAYER_VOLUME_KEY);
  if (raw === null || raw === undefined || raw.trim() === '') return DEFAULT_VOLUME;
  const value = Number(raw);
  return Number.isFinite(value) ? clampVolume(value) : DEFAULT_VOLUME;
}

export function writeStoredVolume(
  volume: number,
  storage: Pick<Storage, 'setItem'> | null = safeLocalStorage(),
): void {
  try {
    storage?.setItem(PLAYER_VOLUME_KEY, String(clampVolume(volume)));
  } catch {
    // Storage full or blocked: the volume still applies for this visit.
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
