/** SPEC section 9 constants of the player and its stream handling. */

export const PLAYER_VOLUME_KEY = 'player-volume';
export const DEFAULT_VOLUME = 0.5;

/** Previous restarts the song when more than this many seconds have played. */
export const PREVIOUS_RESTART_THRESHOLD_S = 3;
/** Auto-advance this many seconds before the end, for songs longer than the minimum below. */
export const AUTO_ADVANCE_WINDOW_S = 0.5;
export const AUTO_ADVANCE_MIN_DURATION_S = 1;
export const UP_NEXT_COUNT = 4;

/** Below this width the mobile player shows (SPEC section 9: width below 768 px). */
export const MOBILE_BREAKPOINT_PX = 768;

/** Keyboard seek step (beyond SPEC). */
export const SEEK_STEP_S = 5;

export const PLAYER_MESSAGES = {
  placeholder: 'This feature will be available soon',
  autoplayBlocked: 'Autoplay blocked. Tap play to continue.',
  playbackError: (type: string) => `Playback Error: ${type}`,
} as const;
