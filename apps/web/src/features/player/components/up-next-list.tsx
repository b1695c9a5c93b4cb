import { formatDuration } from '../../../lib/format';
import { CoverArt } from '../../../components/ui';
import { usePlayerView } from './player-view';

/** Up to four upcoming songs; choosing one plays it within the same list. */
export function UpNextList({ id }: { id: string }) {
  const { upNext, playSong } = usePlayerView();
  return (
    <section id={id} aria-labelledby={`${id}-heading`}>
      <h2
        id={`${id}-heading`}
        className="px-3 pt-3 pb-2 text-meta font-semibold tracking-wider text-muted uppercase"
      >
        Playing next
      </h2>
      {upNext.length === 0 ? (
        <p className="px-3 pb-3 text-body text-muted">Nothing queued after this song.</p>
      ) : (
        <ol className="flex flex-col pb-2">
          {upNext.map((song) => (
            <li key={song._id}>
              <button
                type="button"
                onClick={() => playSong(song)}
                aria-label={`Play ${song.title} by ${song.singer || song.artist?.name}`}
                className="grid w-full grid-cols-[40px_minmax(0,1fr)_auto] items-center gap-3 px-3 py-2 text-left transition-colors duration-150 hover:bg-surface-2 focus-visible:-outline-offset-2"
              >
                <CoverArt src={song.coverImage} alt="" small iconSize={16} className="size-10" />
                <span className="min-w-0">
                  <span className="block truncate text-body font-medium text-text">{song.title}</span>
                  <span className="block truncate text-meta text-muted">
                    {song.singer || song.artist?.name}
                  </span>
                </span>
                <span className="text-meta text-muted tabular-nums">{formatDuration(song.duration)}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
