import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { logout, sessionEnded } from '../auth';

/**
 * Preview mode: the listener asked to hear a locked song's 30-second preview. It belongs to one selection of the
 * song (the player's `lastSelectedAt` when it started), so selecting anything else, or the same song again by
 * its play button, leaves preview mode without anything to clear.
 */
export interface PreviewState {
  songId: string | null;
  /** The player's `lastSelectedAt` of the selection being previewed. */
  selectedAt: number | null;
  /** The part of the song the preview covers, once the server said (seconds). */
  window: { startSec: number; durationSec: number } | null;
  /** The preview played to its end: the player offers to buy or subscribe. */
  ended: boolean;
}

/** The slices preview mode is read from (the store's, or a test's). */
export interface PreviewRootState {
  preview?: PreviewState;
  player?: { selectedSong: { _id: string } | null; lastSelectedAt: number | null };
}

/** The preview in progress for the selected song's current selection, else null. */
export function selectActivePreview(state: PreviewRootState): PreviewState | null {
  const preview = state.preview;
  const player = state.player;
  if (!preview?.songId || !player?.selectedSong) return null;
  if (player.selectedSong._id !== preview.songId || player.lastSelectedAt !== preview.selectedAt) return null;
  return preview;
}

export const initialPreviewState: PreviewState = {
  songId: null,
  selectedAt: null,
  window: null,
  ended: false,
};

const previewSlice = createSlice({
  name: 'preview',
  initialState: initialPreviewState,
  reducers: {
    previewStarted(_state, action: PayloadAction<{ songId: string; selectedAt: number | null }>) {
      return { ...initialPreviewState, ...action.payload };
    },
    previewWindowKnown(
      state,
      action: PayloadAction<{ songId: string; startSec: number; durationSec: number }>,
    ) {
      const { songId, startSec, durationSec } = action.payload;
      if (state.songId === songId) state.window = { startSec, durationSec };
    },
    previewEnded(state, action: PayloadAction<string>) {
      if (state.songId === action.payload) state.ended = true;
    },
    /** The listener closed the prompt at the end of a preview. */
    previewDismissed() {
      return initialPreviewState;
    },
  },
  extraReducers: (builder) => {
    builder.addMatcher(isAnyOf(logout.fulfilled, sessionEnded), () => initialPreviewState);
  },
});

export const { previewStarted, previewWindowKnown, previewEnded, previewDismissed } = previewSlice.actions;
export const previewReducer = previewSlice.reducer;
