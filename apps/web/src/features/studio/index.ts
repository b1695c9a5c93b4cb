/** The studio feature's public surface: artist and admin content management. */
export { AlbumForm } from './components/album-form';
export { ArtistForm } from './components/artist-form';
export { DeleteAction } from './components/delete-action';
export { SongForm } from './components/song-form';
export { SongStatusPanel } from './components/song-status-panel';
export { StatusBadge } from './components/status-badge';
export { StudioAlbumRow, StudioSongRow } from './components/studio-rows';
export { findUpload, rememberUpload, useRecentUploads } from './recent-uploads';
export { STUDIO_MESSAGES } from './studio.messages';
export type { FormMode } from './studio.types';
export { pickArtist, studioPaths, useManagedArtists } from './use-managed-artists';
export { useEditedSong } from './use-edited-song';
export { useSongStatus } from './use-song-status';
