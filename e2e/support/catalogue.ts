import { inject } from 'vitest';

interface Named {
  _id: string;
  name: string;
}
interface AlbumSummary {
  _id: string;
  title: string;
  artist: { _id: string; name: string };
}

interface Song {
  _id: string;
  title: string;
}

/** A public API read against the e2e server. */
export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${inject('baseUrl')}/api${path}`);
  if (!res.ok) throw new Error(`GET ${path} failed: ${res.status}`);
  return (await res.json()) as T;
}

/** Ids of the demo catalogue the tests visit: Nova Reyes, her album Neon Tides and its song Harbour Lights. */
export async function demoCatalogue() {
  const { artists } = await getJson<{ artists: Named[] }>('/artists/all');
  const artist = artists.find((candidate) => candidate.name === 'Nova Reyes');
  if (!artist) throw new Error('the demo artist Nova Reyes is missing');
  const { albums } = await getJson<{ albums: AlbumSummary[] }>(`/albums/artist/${artist._id}`);
  const album = albums.find((candidate) => candidate.title === 'Neon Tides');
  if (!album) throw new Error('the demo album Neon Tides is missing');
  const listing = await getJson<Song[] | { songs: Song[] }>(`/songs/album/${album._id}`);
  const song = (Array.isArray(listing) ? listing : listing.songs).find((s) => s.title === 'Harbour Lights');
  if (!song) throw new Error('the demo song Harbour Lights is missing');
  return {
    artistId: artist._id,
    artistName: artist.name,
    albumId: album._id,
    albumTitle: album.title,
    songId: song._id,
    songTitle: song.title,
  };
}

/** The id of a demo album, found by its artist's name and its title. */
export async function demoAlbumId(artistName: string, title: string): Promise<string> {
  const { artists } = await getJson<{ artists: Named[] }>('/artists/all');
  const artist = artists.find((candidate) => candidate.name === artistName);
  if (!artist) throw new Error(`the demo artist ${artistName} is missing`);
  const { albums } = await getJson<{ albums: AlbumSummary[] }>(`/albums/artist/${artist._id}`);
  const album = albums.find((candidate) => candidate.title === title);
  if (!album) throw new Error(`the demo album ${title} is missing`);
  return album._id;
}
