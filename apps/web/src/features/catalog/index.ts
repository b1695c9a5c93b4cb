/** The catalogue feature's public surface. */
export * from './catalog.api';
export type * from './catalog.types';
export { CoverArt } from '../../components/ui';
export { AlbumCard, ArtistCard, CoverGrid, CoverGridSkeleton } from './components/cover-grid';
export { SongList, SongListSkeleton, type SongListProps } from './components/song-list';
export { PagedSongList } from './components/paged-song-list';
export { ArtistHeader, ArtistHeaderSkeleton } from './components/artist-header';
export { SearchBox, useAddressSearch } from './components/search-box';
export { GenrePicker } from './components/genre-picker';
