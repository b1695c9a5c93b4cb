import { AlertTriangle, Pause, Play, SkipBack, SkipForward } from 'lucide-react';
import { IconButton, Spinner } from '../../../components/ui';
import { usePlayerView } from './player-view';

type ButtonSize = 'sm' | 'md' | 'lg';

/** Play/pause: disabled with a spinner while loading, disabled with a warning icon when the stream failed. */
export function PlayPauseButton({
  size = 'md',
  variant = 'primary',
}: {
  size?: ButtonSize;
  variant?: 'primary' | 'ghost' | 'surface';
}) {
  const { playing, busy, error, controls } = usePlayerView();
  const iconSize = size === 'lg' ? 26 : size === 'md' ? 20 : 18;
  const label = error ? `Cannot play: ${error}` : busy ? 'Loading' : playing ? 'Pause' : 'Play';
  return (
    <IconButton
      label={label}
      size={size}
      variant={variant}
      disabled={busy || Boolean(error)}
      aria-busy={busy || undefined}
      onClick={controls.togglePlay}
      data-testid="player-play-toggle"
      data-state={error ? 'error' : busy ? 'loading' : playing ? 'playing' : 'paused'}
      className={error ? 'bg-surface-2 text-accent-2 opacity-100!' : undefined}
    >
      {error ? (
        <AlertTriangle size={iconSize} strokeWidth={1.75} aria-hidden="true" />
      ) : busy ? (
        <Spinner size="sm" tone={variant === 'primary' ? 'onAccent' : 'accent'} />
      ) : playing ? (
        <Pause size={iconSize} strokeWidth={1.75} fill="currentColor" aria-hidden="true" />
      ) : (
        <Play
          size={iconSize}
          strokeWidth={1.75}
          fill="currentColor"
          aria-hidden="true"
          className="translate-x-px"
        />
      )}
    </IconButton>
  );
}

/** Previous song, play/pause, next song: the middle of both players' control rows. */
export function TransportControls({
  size,
  playSize,
  iconSize,
}: {
  /** Of the previous and next buttons. */
  size: ButtonSize;
  playSize?: ButtonSize;
  iconSize: number;
}) {
  const { controls } = usePlayerView();
  return (
    <>
      <IconButton label="Previous song" size={size} onClick={controls.previous}>
        <SkipBack size={iconSize} strokeWidth={1.75} fill="currentColor" aria-hidden="true" />
      </IconButton>
      <PlayPauseButton size={playSize} />
      <IconButton label="Next song" size={size} onClick={controls.next}>
        <SkipForward size={iconSize} strokeWidth={1.75} fill="currentColor" aria-hidden="true" />
      </IconButton>
    </>
  );
}
