import { createAsyncThunk, createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { StreamAlbumResponse, StreamPreviewResponse, StreamSongResponse } from '@backbeat/contract';
import { api, errorText } from '../../lib/api';
import { logout, sessionEnded } from '../auth';
import type { Song } from '../catalog';
import { previewWindowKnown, selectActivePreview, type PreviewRootState } from './preview.slice';
import { isCancelled, requestSongAddress, sessionSignal, takePrefetchedAddress } from './stream-prefetch';
import { STREAM_MESSAGES, albumStreamErrorMessage, songStreamErrorMessage } from './stream.messages';

export interface StreamError {
  songId?: string;
  albumId?: string;
  message: string;
}

export interface StreamState {
  /** HLS playlist address per song id. */
  urls: Record<string, string>;
  /** Plain-audio fallback address per song id (from the song endpoint). */
  audioUrls: Record<string, string>;
  /** The first segment's address per song id, asked for together with the playlist and the key. */
  firstSegmentUrls: Record<string, string>;
  fetchedIds: string[];
  /** Songs whose addresses above are their preview's (a preview token), not the song's own. */
  previewIds: string[];
  loading: boolean;
  /** The song whose address is being fetched, so a second request for it is not sent. */
  fetchingSongId: string | null;
  error: StreamError | null;
}

export const initialStreamState: StreamState = {
  urls: {},
  audioUrls: {},
  firstSegmentUrls: {},
  fetchedIds: [],
  previewIds: [],
  loading: false,
  fetchingSongId: null,
  error: null,
};

interface StreamRejection {
  message: string;
  /** The id was already fetched: skipped, never shown as an error. */
  skipped?: boolean;
  /** Cancelled by a sign-out (`endStreamSession`): never shown as an error either. */
  cancelled?: boolean;
}

type StreamThunkConfig = {
  state: { stream: StreamState } & PreviewRootState;
  rejectValue: StreamRejection;
};
type SongStreamThunkConfig = StreamThunkConfig & { pendingMeta: { skipped: boolean } };

export interface FetchSongStreamArg {
  songId: string;
  /** The song, when known: its facts word a 403 message. */
  song?: Pick<Song, 'accessType' | 'artist' | 'album'>;
}

const wantsPreview = (state: PreviewRootState, songId: string) =>
  selectActivePreview(state)?.songId === songId;

/** The song's addresses are cached, and of the kind wanted now (its preview's, or its own). */
const alreadyFetched = (state: { stream: StreamState } & PreviewRootState, songId: string) =>
  state.stream.fetchedIds.includes(songId) &&
  state.stream.previewIds.includes(songId) === wantsPreview(state, songId);

/** GET /stream/song/:id/preview: the preview's signed addresses (no purchase needed). */
export function requestPreviewAddress(songId: string, signal?: AbortSignal): Promise<StreamPreviewResponse> {
  return api.get<StreamPreviewResponse>(`/stream/song/${encodeURIComponent(songId)}/preview`, {
    signal: sessionSignal(signal),
  });
}

/**
 * GET /stream/song/:id, once per song; in preview mode GET /stream/song/:id/preview instead (and once more when
 * the cached addresses are of the other kind).
 */
export const fetchSongStream = createAsyncThunk<
  StreamSongResponse & { songId: string; preview: boolean },
  FetchSongStreamArg,
  SongStreamThunkConfig
>(
  'stream/fetchSong',
  async ({ songId, song }, { dispatch, getState, rejectWithValue, signal }) => {
    const state = getState();
    const preview = wantsPreview(state, songId);
    if (alreadyFetched(state, songId)) {
      return rejectWithValue({ message: STREAM_MESSAGES.alreadyFetched, skipped: true });
    }
    if (preview) {
      try {
        const { url, audioUrl, firstSegmentUrl, startSec, durationSec } = await requestPreviewAddress(
          songId,
          signal,
        );
        dispatch(previewWindowKnown({ songId, startSec, durationSec }));
        return { url, audioUrl, firstSegmentUrl, songId, preview: true };
      } catch (error) {
        // Cancelled by a sign-out: nothing to tell anyone.
        if (isCancelled(error)) return rejectWithValue({ message: '', cancelled: true });
        return rejectWithValue({ message: errorText(error, STREAM_MESSAGES.previewFailed) });
      }
    }
    try {
      const response = await (takePrefetchedAddress(songId) ?? requestSongAddress(songId, signal));
      return { ...response, songId, preview: false };
    } catch (error) {
      if (isCancelled(error)) return rejectWithValue({ message: '', cancelled: true });
      return rejectWithValue({
        message: songStreamErrorMessage(
          error,
          song && {
            accessType: song.accessType,
            artistName: song.artist?.name,
            albumTitle: song.album?.title ?? null,
            isPremium: song.album?.isPremium ?? false,
          },
        ),
      });
    }
  },
  {
    condition: ({ songId }, { getState }) => getState().stream.fetchingSongId !== songId,
    getPendingMeta: ({ arg }, { getState }) => ({ skipped: alreadyFetched(getState(), arg.songId) }),
  },
);

async function requestAlbumAddresses(albumId: string, signal: AbortSignal): Promise<StreamAlbumResponse> {
  const response = await api.get<StreamAlbumResponse | null>(`/stream/album/${encodeURIComponent(albumId)}`, {
    signal: sessionSignal(signal),
  });
  return { urls: Array.isArray(response?.urls) ? response.urls : [] };
}

/** GET /stream/album/:id: addresses for the album's songs the viewer may play, in one call. */
export const fetchAlbumStream = createAsyncThunk<StreamAlbumResponse, string, StreamThunkConfig>(
  'stream/fetchAlbum',
  async (albumId, { rejectWithValue, signal }) => {
    try {
      return await requestAlbumAddresses(albumId, signal);
    } catch (error) {
      if (isCancelled(error)) return rejectWithValue({ message: '', cancelled: true });
      return rejectWithValue({ message: albumStreamErrorMessage(error) });
    }
  },
);

/**
 * The same call made ahead of any click (an album's track list on screen): its answer is stored like
 * fetchAlbumStream's, but it neither shows as loading nor touches the error of the song in the player.
 */
export const prefetchAlbumStream = createAsyncThunk<StreamAlbumResponse, string, StreamThunkConfig>(
  'stream/prefetchAlbum',
  (albumId, { signal }) => requestAlbumAddresses(albumId, signal),
);

function markFetched(state: StreamState, songId: string): void {
  if (!state.fetchedIds.includes(songId)) state.fetchedIds.push(songId);
}

function storeAlbumUrls(state: StreamState, response: StreamAlbumResponse): void {
  response.urls.forEach((item, index) => {
    // An item without a song id is keyed by its position (SPEC section 7).
    const key = item.songId || String(index);
    // An address already held stays: replacing the playing song's would make the player load it again. A held
    // preview's stays too (and stays marked as one): playing the song itself asks for its own address then.
    if (state.urls[key]) return;
    state.urls[key] = item.url;
    if (item.firstSegmentUrl) state.firstSegmentUrls[key] = item.firstSegmentUrl;
    markFetched(state, key);
  });
}

const streamSlice = createSlice({
  name: 'stream',
  initialState: initialStreamState,
  reducers: {
    clearStreams() {
      return initialStreamState;
    },
    /** Drops one song's addresses (e.g. their token expired) so the next play fetches new ones. */
    forgetSongStream(state, action: PayloadAction<string>) {
      delete state.urls[action.payload];
      delete state.audioUrls[action.payload];
      delete state.firstSegmentUrls[action.payload];
      state.fetchedIds = state.fetchedIds.filter((id) => id !== action.payload);
      state.previewIds = state.previewIds.filter((id) => id !== action.payload);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchSongStream.pending, (state, action) => {
        if (action.meta.skipped) return;
        state.loading = true;
        state.fetchingSongId = action.meta.arg.songId;
        state.error = null;
      })
      .addCase(fetchSongStream.fulfilled, (state, action) => {
        const { songId, url, audioUrl, firstSegmentUrl, preview } = action.payload;
        state.urls[songId] = url;
        state.audioUrls[songId] = audioUrl;
        // Always replaced: a song's first segment is never asked for with its preview's playlist, nor the reverse.
        if (firstSegmentUrl) state.firstSegmentUrls[songId] = firstSegmentUrl;
        else delete state.firstSegmentUrls[songId];
        markFetched(state, songId);
        state.previewIds = state.previewIds.filter((id) => id !== songId);
        if (preview) state.previewIds.push(songId);
        state.loading = false;
        state.fetchingSongId = null;
      })
      .addCase(fetchSongStream.rejected, (state, action) => {
        if (action.payload?.skipped) return;
        state.loading = false;
        state.fetchingSongId = null;
        if (action.meta.aborted || action.payload?.cancelled) return;
        state.error = {
          songId: action.meta.arg.songId,
          message: action.payload?.message ?? STREAM_MESSAGES.songFailed,
        };
      })
      .addCase(fetchAlbumStream.pending, (state) => {
        state.loading = true;
        state.error = null;
      })
      .addCase(fetchAlbumStream.fulfilled, (state, action) => {
        storeAlbumUrls(state, action.payload);
        state.loading = false;
      })
      .addCase(prefetchAlbumStream.fulfilled, (state, action) => storeAlbumUrls(state, action.payload))
      .addCase(fetchAlbumStream.rejected, (state, action) => {
        state.loading = false;
        if (action.meta.aborted || action.payload?.cancelled) return;
        state.error = {
          albumId: action.meta.arg,
          message: action.payload?.message ?? STREAM_MESSAGES.albumFailed,
        };
      })
      // Stream addresses are signed for one account.
      .addMatcher(isAnyOf(logout.fulfilled, sessionEnded), () => initialStreamState);
  },
});

export const { clearStreams, forgetSongStream } = streamSlice.actions;
export const streamReducer = streamSlice.reducer;
