import { Pause, Play, Shuffle } from 'lucide-react';
import { Button } from '../../../components/ui';
import type { Song } from '../../catalog';
import { usePlayerDispatch, usePlayerSelector } from '../hooks/use-player-store';
import { playableSongs, shuffled } from '../play-order';
import { selectIsPlaying, selectPlaybackContext } from '../player.selectors';
import { playFromList, togglePlay } from '../player.slice';
import type { PlaybackContextType } from '../player.types';

/**
 * A page's "Play" and "Shuffle" (album, artist): the songs the viewer may play, in order or shuffled, as the
 * player's queue. While this list plays, Play pauses and resumes it. With nothing playable both wait (disabled).
 */
export function PlayAllButtons({
  songs,
  context,
  what,
}: {
  songs: readonly Song[];
  context: { type: PlaybackContextType; id: string };
  /** "album" or "artist", for the names and the hint. */
  what: string;
}) {
  const dispatch = usePlayerDispatch();
  const current = usePlayerSelector(selectPlaybackContext);
  const playing = usePlayerSelector(selectIsPlaying);
  const playable = playableSongs(songs);
  const thisList = current.type === context.type && current.id === context.id;
  const start = (order: Song[]) => dispatch(playFromList({ songs: order, index: 0, context }));
  const none = playable.length === 0;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        size="lg"
        disabled={none}
        title={none ? `Nothing on this ${what} plays for you yet: preview or unlock a song below` : undefined}
        aria-label={thisList && playing ? `Pause this ${what}` : `Play this ${what}`}
        icon={
          thisList && playing ? (
            <Pause size={18} strokeWidth={1.75} fill="currentColor" aria-hidden="true" />
          ) : (
            <Play size={18} strokeWidth={1.75} fill="currentColor" aria-hidden="true" />
          )
        }
        onClick={() => (thisList ? dispatch(togglePlay()) : start(playable))}
      >
        {thisList && playing ? 'Pause' : 'Play'}
      </Button>
      <Button
        size="lg"
        variant="secondary"
        disabled={none}
        aria-label={`Shuffle play this ${what}`}
        icon={<Shuffle size={18} strokeWidth={1.75} aria-hidden="true" />}
        onClick={() => start(shuffled(playable))}
      >
        Shuffle
      </Button>
    </div>
  );
}
