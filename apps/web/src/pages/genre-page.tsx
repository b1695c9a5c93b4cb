import { Music } from 'lucide-react';
import { useParams } from 'react-router';
import { LinkEmptyState, PageHeader, QueryErrorState } from '../components/ui';
import { useSongLikes } from '../features/auth';
import {
  PagedSongList,
  SongListSkeleton,
  SONG_LIST_FRESH_SECONDS,
  genreKey,
  loadedSongs,
  useGetGenreSongsInfiniteQuery,
  useGetGenresQuery,
} from '../features/catalog';

export default function GenrePage() {
  const { genre = '' } = useParams();
  // A fresh cached genre (5 minutes, per lowercased genre) is shown without a request.
  const pages = useGetGenreSongsInfiniteQuery(genre, {
    skip: !genre,
    refetchOnMountOrArgChange: SONG_LIST_FRESH_SECONDS,
  });
  const { likedIds, toggleLike } = useSongLikes();
  // The genre as the catalogue spells it ("/genre/electronic" is "Electronic", "/genre/hip-hop" "Hip-Hop").
  const { data: genres } = useGetGenresQuery();
  const key = genreKey(genre);
  const name = genres?.find((known) => known.slug === key || known.name.toLowerCase() === key)?.name ?? genre;
  const current = pages.currentData;
  const data = current ? { songs: loadedSongs(current), total: current.pages[0]?.total ?? 0 } : null;
  return (
    <>
      <title>{`${name} · Backbeat`}</title>
      <PageHeader
        eyebrow="Genre"
        title={<span className={name === genre ? 'capitalize' : undefined}>{name}</span>}
        description={
          data && data.total > 0
            ? `${data.total.toLocaleString()} ${data.total === 1 ? 'song' : 'songs'}`
            : 'Songs in this genre.'
        }
      />
      {!data && pages.isError ? (
        <QueryErrorState query={pages} fallback="Fetching songs by genre failed" />
      ) : !data ? (
        <SongListSkeleton count={10} />
      ) : data.songs.length === 0 ? (
        <LinkEmptyState
          icon={Music}
          title={`No ${name} songs yet`}
          description="Nothing has been published in this genre yet."
          to="/home"
          linkLabel="Back to home"
          linkVariant="secondary"
        />
      ) : (
        <PagedSongList
          pages={pages}
          failedText="Fetching songs by genre failed"
          songs={data.songs}
          likedIds={likedIds}
          onToggleLike={toggleLike}
          label={`${name} songs`}
          playContext={{ type: 'genre', id: genre }}
        />
      )}
    </>
  );
}
