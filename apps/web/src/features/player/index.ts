/** The player feature's public surface. */
/**
 * The persistent player component, loaded on demand: the layout mounts it beside the first screen rather than
 * before it (a static export here would put its engine and both bars on every first route).
 */
export const loadPlayer = () => import('./components/player').then(({ Player }) => ({ default: Player }));
export { playFromList, selectSong, clearPlaybackContext, resetPlayer, pause } from './player.slice';
export { persistedPlayerReducer, startPlayerListeners } from './player.persist';
export { usePlayerLibrary } from './library.api';
export { streamReducer, clearStreams, fetchSongStream, fetchAlbumStream } from './stream.slice';
export { selectSelectedSong, selectIsPlaying, type PlayerRootState } from './player.selectors';
export { PLAYER_VOLUME_KEY, DEFAULT_VOLUME } from './player.constants';
export type { PlaybackContextType, PlayFromListPayload, PlayerState } from './player.types';
export type { StreamState, StreamError } from './stream.slice';
export { SongPlayButton, usePlaySongInList, type SongListPlayContext } from './components/song-play-button';
export { SongPreviewButton } from './components/song-preview-button';
export { PlayAllButtons } from './components/play-all-buttons';
export { leavePreview, previewSong } from './player.thunks';
export { previewReducer, selectActivePreview, type PreviewState } from './preview.slice';
