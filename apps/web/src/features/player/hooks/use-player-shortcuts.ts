import { useEffect } from 'react';
import type { PlayerControls } from './use-player-controls';

/** The shortcuts, as the help dialog lists them. */
export const PLAYER_SHORTCUTS = [
  { keys: ['Space'], action: 'Play or pause' },
  { keys: ['←'], action: 'Back 5 seconds' },
  { keys: ['→'], action: 'Forward 5 seconds' },
  { keys: ['Shift', '←'], action: 'Previous song' },
  { keys: ['Shift', '→'], action: 'Next song' },
  { keys: ['L'], action: 'Like or unlike the song' },
  { keys: ['M'], action: 'Mute or unmute' },
  { keys: ['?'], action: 'Show these shortcuts' },
] as const;

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'password', 'url', 'tel', 'number', 'date', '']);

/** Typing in a field never triggers a shortcut. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  ) {
    return true;
  }
  return target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type);
}

/** Space and arrows already mean something on buttons, links and sliders; those keep their own meaning. */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (key === ' ')
    return Boolean(target.closest('button, a[href], [role="button"], summary, input, [role="slider"]'));
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    return Boolean(
      target.closest('input, [role="slider"], [role="tablist"], [role="menu"], [role="listbox"]'),
    );
  }
  return false;
}

export interface ShortcutHandlers {
  controls: PlayerControls;
  hasSong: boolean;
  openHelp: () => void;
}

/** The action a key press maps to, or null (exported for tests). */
export function shortcutFor(
  event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>,
): 'togglePlay' | 'seekBackward' | 'seekForward' | 'previous' | 'next' | 'like' | 'mute' | 'help' | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isTypingTarget(event.target) || ownsKey(event.target, event.key)) return null;
  switch (event.key) {
    case ' ':
      return 'togglePlay';
    case 'ArrowLeft':
      return event.shiftKey ? 'previous' : 'seekBackward';
    case 'ArrowRight':
      return event.shiftKey ? 'next' : 'seekForward';
    case 'l':
    case 'L':
      return 'like';
    case 'm':
    case 'M':
      return 'mute';
    case '?':
      return 'help';
    default:
      return null;
  }
}

export function usePlayerShortcuts({ controls, hasSong, openHelp }: ShortcutHandlers): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const action = shortcutFor(event);
      if (!action) return;
      // Holding an arrow keeps seeking; holding any other key acts once.
      if (event.repeat && action !== 'seekBackward' && action !== 'seekForward') return;
      if (action === 'help') {
        event.preventDefault();
        openHelp();
        return;
      }
      if (!hasSong) return;
      event.preventDefault();
      const run = {
        togglePlay: controls.togglePlay,
        seekBackward: controls.seekBackward,
        seekForward: controls.seekForward,
        previous: controls.previous,
        next: controls.next,
        like: controls.toggleLike,
        mute: controls.toggleMute,
      }[action];
      run();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [controls, hasSong, openHelp]);
}
