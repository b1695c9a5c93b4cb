import type { Song } from '@backbeat/contract';
import { useGetAlbumQuery, useGetArtistQuery } from '../../catalog';
import { albumOffer, sellsFreeSong, songOffer, songOfferKind, subscriptionOffer } from '../commerce.offers';
import { OfferButton } from './offer-button';

/**
 * A locked song row's way in: buy the song, buy its premium album, or subscribe to its artist. A song carries only
 * its own price, so the album's or artist's price comes from their (cached) catalogue entries. A song free to
 * stream offers itself for sale instead: buying it gives the download.
 */
export function SongUnlockButton({ song, look = 'row' }: { song: Song; look?: 'row' | 'header' }) {
  if (sellsFreeSong(song))
    return <OfferButton kind="song" offer={songOffer(song)} look={look} purpose="own" />;
  return <LockedSongOffer song={song} look={look} />;
}

function LockedSongOffer({ song, look }: { song: Song; look: 'row' | 'header' }) {
  const kind = songOfferKind(song);
  const albumId = kind === 'album' ? song.album?._id : undefined;
  const artistId = kind === 'subscription' ? song.artist._id : undefined;
  const album = useGetAlbumQuery(albumId ?? '', { skip: !albumId });
  const artist = useGetArtistQuery(artistId ?? '', { skip: !artistId });
  if (!kind) return null;
  const offer =
    kind === 'song'
      ? songOffer(song)
      : kind === 'album'
        ? album.data
          ? albumOffer(album.data)
          : null
        : artist.data
          ? subscriptionOffer(artist.data)
          : null;
  return <OfferButton kind={kind} offer={offer} look={look} />;
}
