import { AlertTriangle, Pause, Play } from 'lucide-react';
import { IconButton, Spinner } from '../../../components/ui';

/** Play/pause: disabled with a spinner while loading, disabled with a warning icon when the stream failed. */
export function PlayPauseButton({
  playing,
  busy,
  error,
  onToggle,
  size = 'md',
  variant = 'primary',
}: {
  playing: boolean;
  busy: boolean;
  error: string | null;
  onToggle: () => void;
  size?: 'sm' | 'md' | 'lg';
  variant?: 'primary' | 'ghost' | 'surface';
}) {
  const iconSize = size === 'lg' ? 26 : size === 'md' ? 20 : 18;
  const label = error ? `Cannot play: ${error}` : busy ? 'Loading' : playing ? 'Pause' : 'Play';
  return (
    <IconButton
      label={label}
      size={size}
      variant={variant}
      disabled={busy || Boolean(error)}
      aria-busy={busy || undefined}
      onClick={onToggle}
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
