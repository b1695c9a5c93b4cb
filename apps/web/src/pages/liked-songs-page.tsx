import { Heart } from 'lucide-react';
import { LinkEmptyState, PageHeader, QueryErrorState } from '../components/ui';
import { useSongLikes } from '../features/auth';
import {
  PagedSongList,
  SongListSkeleton,
  loadedSongs,
  useGetLikedSongsInfiniteQuery,
} from '../features/catalog';

export default function LikedSongsPage() {
  // The liked list changes with every like, so each visit starts again from the first page (the cache is dropped
  // when the page is left).
  const liked = useGetLikedSongsInfiniteQuery();
  const { likedIds, toggleLike } = useSongLikes();
  // A song unliked here leaves the list at once; the count follows.
  const loaded = loadedSongs(liked.data);
  const songs = loaded.filter((song) => likedIds.includes(song._id));
  const total = Math.max(0, (liked.data?.pages[0]?.total ?? 0) - (loaded.length - songs.length));

  return (
    <>
      <title>Liked songs · Backbeat</title>
      <PageHeader
        eyebrow="Your library"
        title="Liked songs"
        description={
          total > 0
            ? `${total.toLocaleString()} ${total === 1 ? 'song' : 'songs'} you love`
            : 'Everything you have liked, in one place.'
        }
      />
      {songs.length === 0 && (liked.isLoading || liked.isUninitialized) ? (
        <SongListSkeleton count={10} />
      ) : songs.length === 0 && liked.isError ? (
        <QueryErrorState query={liked} fallback="Fetching liked songs failed" />
      ) : songs.length === 0 ? (
        <LinkEmptyState
          icon={Heart}
          title="No liked songs yet"
          description="Tap the heart on any song and it will be waiting for you here."
          to="/home"
          linkLabel="Find something to like"
        />
      ) : (
        <PagedSongList
          pages={liked}
          failedText="Fetching liked songs failed"
          songs={songs}
          likedIds={likedIds}
          onToggleLike={toggleLike}
          label="Liked songs"
          playContext={{ type: 'liked' }}
        />
      )}
    </>
  );
}
