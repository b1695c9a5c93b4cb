import { Button } from '../../../components/ui';
import { queryErrorText } from '../../../lib/api-query';
import { SongList, type SongListProps } from './song-list';

/** What a paged song list needs of its RTK Query infinite query. */
export interface SongPages {
  isFetching: boolean;
  isError: boolean;
  error?: unknown;
  hasNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * A song list loaded a page at a time (liked, artist and genre songs): the songs so far, the failed page's message
 * (the server's, else `failedText`) and "Load more" while pages remain.
 */
export function PagedSongList({
  pages,
  failedText,
  ...list
}: SongListProps & { pages: SongPages; failedText: string }) {
  return (
    <div aria-busy={pages.isFetching}>
      <SongList {...list} />
      {pages.isError ? (
        <p role="alert" className="mt-4 text-center text-meta text-danger">
          {queryErrorText(pages.error, failedText)}
        </p>
      ) : null}
      {pages.hasNextPage ? (
        <div className="mt-6 flex justify-center">
          <Button variant="secondary" loading={pages.isFetching} onClick={() => void pages.fetchNextPage()}>
            Load more
          </Button>
        </div>
      ) : null}
    </div>
  );
}
