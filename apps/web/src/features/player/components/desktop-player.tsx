import { useId, useState } from 'react';
import { Keyboard, ListMusic, SlidersHorizontal } from 'lucide-react';
import { CoverArt, IconButton, cx } from '../../../components/ui';
import { LikeButton } from './like-button';
import { NowPlayingMeta } from './now-playing-meta';
import { TransportControls } from './play-pause-button';
import { PlayerPreviewButton, PlayerUnlockButton, PreviewBadge } from './preview-parts';
import { usePlayerView } from './player-view';
import { SeekBar } from './seek-bar';
import { UpNextList } from './up-next-list';
import { VolumeControl } from './volume-control';

/** The placeholder pills, on every width the docked bar is shown at (768 px up), a little tighter below 1024 px. */
const pill =
  'inline-flex h-7 items-center whitespace-nowrap rounded-pill border border-line px-2 text-meta font-semibold text-muted transition-colors duration-150 hover:border-muted hover:text-text lg:px-2.5';

/** The player docked at the bottom on wide screens (88 px), with the 'playing next' panel above it. */
export function DesktopPlayer() {
  const view = usePlayerView();
  const { song, error, liked, controls } = view;
  const [showNext, setShowNext] = useState(false);
  const panelId = useId();

  return (
    <section
      aria-label="Player"
      data-testid="desktop-player"
      className="fixed inset-x-0 bottom-0 z-30 hidden h-[88px] border-t border-line bg-surface/95 backdrop-blur-md md:block"
    >
      {showNext ? (
        <div className="absolute right-4 bottom-[calc(100%+8px)] w-80 overflow-hidden rounded-card border border-line bg-surface shadow-2xl shadow-black/50">
          <UpNextList id={panelId} />
        </div>
      ) : null}
      <div className="grid h-full grid-cols-[minmax(0,1fr)_minmax(0,1.6fr)_minmax(0,1fr)] items-center gap-4 px-4 lg:gap-6">
        <div className="flex min-w-0 items-center gap-3">
          <CoverArt
            src={song.coverImage}
            alt={`${song.title} cover`}
            small
            iconSize={20}
            className="size-14"
            eager
          />
          <NowPlayingMeta song={song} error={error} badge={<PreviewBadge />} badgeLine="singer" />
          <LikeButton title={song.title} liked={liked} onToggle={controls.toggleLike} size="sm" />
        </div>

        <div className="flex min-w-0 flex-col items-center gap-1">
          <div className="flex items-center gap-2">
            <button type="button" className={cx(pill, 'mr-1 lg:mr-2')} onClick={controls.comingSoon}>
              Lossless
            </button>
            <TransportControls size="sm" iconSize={18} />
            <button type="button" className={cx(pill, 'ml-1 lg:ml-2')} onClick={controls.comingSoon}>
              Reset master
            </button>
          </div>
          {/* A locked song has nothing to seek: its preview and its unlock take the seek bar's place. */}
          {view.offerPreview || (song.canPlay === false && !view.preview) ? (
            <div className="flex h-8 items-center justify-center gap-2" data-testid="player-offers">
              <PlayerPreviewButton />
              <PlayerUnlockButton />
            </div>
          ) : (
            <SeekBar className="max-w-xl" />
          )}
        </div>

        <div className="flex min-w-0 items-center justify-end gap-1 lg:gap-2">
          <IconButton
            label="Audio effects"
            size="sm"
            className="hidden lg:inline-flex"
            onClick={controls.comingSoon}
          >
            <SlidersHorizontal size={18} strokeWidth={1.75} aria-hidden="true" />
          </IconButton>
          <VolumeControl sliderClassName="md:w-16 lg:w-24" />
          <IconButton
            label={showNext ? 'Hide playing next' : 'Show playing next'}
            aria-expanded={showNext}
            aria-controls={showNext ? panelId : undefined}
            size="sm"
            variant={showNext ? 'active' : 'ghost'}
            onClick={() => setShowNext((shown) => !shown)}
          >
            <ListMusic size={18} strokeWidth={1.75} aria-hidden="true" />
          </IconButton>
          <IconButton
            label="Keyboard shortcuts"
            size="sm"
            className="hidden xl:inline-flex"
            onClick={view.openShortcuts}
          >
            <Keyboard size={18} strokeWidth={1.75} aria-hidden="true" />
          </IconButton>
        </div>
      </div>
    </section>
  );
}
