import { useCallback, useEffect, useState } from 'react';
import { ChevronDown, Maximize2, Minimize2, Repeat, Shuffle } from 'lucide-react';
import { CoverArt, IconButton, cx } from '../../../components/ui';
import { LikeButton } from './like-button';
import { NowPlayingMeta } from './now-playing-meta';
import { PlayPauseButton, TransportControls } from './play-pause-button';
import { PlayerDialog } from './player-dialog';
import { PlayerPreviewButton, PlayerUnlockButton, PreviewBadge } from './preview-parts';
import { usePlayerView } from './player-view';
import { SeekBar } from './seek-bar';

/** Below 768 px: the mini bar above the bottom navigation, expanding to the full-screen NOW PLAYING view. */
export function MobilePlayer() {
  const [expanded, setExpanded] = useState(false);
  const close = useCallback(() => setExpanded(false), []);
  return (
    <>
      <MiniBar onExpand={() => setExpanded(true)} />
      {expanded ? <NowPlayingView onClose={close} /> : null}
    </>
  );
}

function MiniBar({ onExpand }: { onExpand: () => void }) {
  const { song, error, currentTime, duration } = usePlayerView();
  const percent = duration > 0 ? Math.min(100, (currentTime / duration) * 100) : 0;
  return (
    <section
      aria-label="Player"
      data-testid="mobile-mini-player"
      className="fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-30 h-14 border-t border-line bg-surface/95 backdrop-blur-md md:hidden"
    >
      <div aria-hidden="true" className="absolute inset-x-0 top-0 h-0.5 bg-line">
        <div className="h-full bg-accent" style={{ width: `${percent}%` }} data-testid="mini-progress" />
      </div>
      <div className="flex h-full items-center gap-2 pr-2 pl-3">
        <button
          type="button"
          onClick={onExpand}
          aria-haspopup="dialog"
          className="flex min-w-0 flex-1 items-center gap-3 rounded-control text-left"
        >
          {/* The visible title and singer are part of the name (WCAG 2.5.3). */}
          <span className="sr-only">Open now playing: </span>
          <CoverArt src={song.coverImage} alt="" small iconSize={16} className="size-10" />
          <span className="min-w-0 flex-1">
            <NowPlayingMeta song={song} error={error} linkSinger={false} badge={<PreviewBadge compact />} />
          </span>
        </button>
        <PlayerPreviewButton />
        <PlayerUnlockButton />
        <PlayPauseButton size="md" variant="ghost" />
      </div>
    </section>
  );
}

function NowPlayingView({ onClose }: { onClose: () => void }) {
  const { song, error, liked, repeat, controls } = usePlayerView();
  const [enlarged, setEnlarged] = useState(false);
  // The page behind the full-screen view does not scroll.
  useEffect(() => {
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
    };
  }, []);
  return (
    <PlayerDialog
      labelledBy="now-playing-heading"
      onClose={onClose}
      data-testid="now-playing"
      className="fixed inset-0 z-40 flex flex-col overflow-y-auto bg-bg px-6 pt-[max(1rem,env(safe-area-inset-top))] pb-[max(1.5rem,env(safe-area-inset-bottom))] md:hidden"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 h-2/3 bg-gradient-to-b from-accent/15 via-surface/40 to-transparent"
      />
      <header className="relative flex items-center justify-between gap-2">
        <IconButton label="Close now playing" onClick={onClose}>
          <ChevronDown size={24} strokeWidth={1.75} aria-hidden="true" />
        </IconButton>
        <h2 id="now-playing-heading" className="text-meta font-semibold tracking-[0.2em] text-muted">
          NOW PLAYING
        </h2>
        <LikeButton title={song.title} liked={liked} onToggle={controls.toggleLike} iconSize={22} />
      </header>

      <div className="relative flex flex-1 items-center justify-center py-6">
        <button
          type="button"
          onClick={() => setEnlarged((value) => !value)}
          aria-pressed={enlarged}
          aria-label={enlarged ? 'Shrink cover' : 'Enlarge cover'}
          className={cx(
            'group relative rounded-card transition-[width] duration-250 ease-out',
            enlarged ? 'w-full' : 'w-[78%] max-w-xs',
          )}
        >
          <CoverArt
            src={song.coverImage}
            alt={`${song.title} cover`}
            iconSize={56}
            eager
            className="w-full shadow-2xl shadow-black/60"
          />
          <span className="absolute right-2 bottom-2 rounded-pill bg-bg/70 p-1.5 text-text opacity-80">
            {enlarged ? (
              <Minimize2 size={16} strokeWidth={1.75} aria-hidden="true" />
            ) : (
              <Maximize2 size={16} strokeWidth={1.75} aria-hidden="true" />
            )}
          </span>
        </button>
      </div>

      <div className="relative flex flex-col gap-5">
        <NowPlayingMeta song={song} error={error} size="lg" onNavigate={onClose} badge={<PreviewBadge />} />
        <div className="flex flex-wrap items-center gap-2 empty:hidden">
          <PlayerPreviewButton />
          <PlayerUnlockButton look="header" />
        </div>
        <SeekBar size="md" />
        <div className="flex items-center justify-between">
          <IconButton label="Shuffle" onClick={controls.comingSoon}>
            <Shuffle size={22} strokeWidth={1.75} aria-hidden="true" />
          </IconButton>
          <TransportControls size="lg" playSize="lg" iconSize={26} />
          <IconButton
            label="Repeat song"
            aria-pressed={repeat}
            variant={repeat ? 'active' : 'ghost'}
            onClick={controls.toggleRepeat}
          >
            <Repeat size={22} strokeWidth={1.75} aria-hidden="true" />
          </IconButton>
        </div>
      </div>
    </PlayerDialog>
  );
}
