import { use } from 'react';
import { Headphones, RotateCcw, X } from 'lucide-react';
import { Button, IconButton, cx } from '../../../components/ui';
import { formatDuration } from '../../../lib/format';
import { SongLockActionContext } from '../../../components/song-lock-action';
import { usePlayerView } from './player-view';

/** "Preview · 0:30–1:00": what the player is playing is a preview, and of which part (text, never colour alone). */
export function PreviewBadge({ compact = false }: { compact?: boolean }) {
  const { preview } = usePlayerView();
  if (!preview) return null;
  const range = preview.window
    ? `${formatDuration(preview.window.startSec)}–${formatDuration(preview.window.startSec + preview.window.durationSec)}`
    : null;
  return (
    <span
      data-testid="preview-badge"
      className="inline-flex shrink-0 items-center gap-1 rounded-pill border border-accent/60 px-1.5 py-px text-[11px] leading-4 font-semibold tracking-wide text-accent uppercase"
    >
      <Headphones size={11} strokeWidth={2} aria-hidden="true" />
      Preview
      {range && !compact ? (
        <span className="font-medium tracking-normal normal-case tabular-nums">
          <span aria-hidden="true"> · </span>
          <span className="sr-only">of </span>
          {range}
        </span>
      ) : null}
    </span>
  );
}

/** "Preview" on a locked song the player holds: hear its 30 seconds instead of the refusal. */
export function PlayerPreviewButton({ className }: { className?: string }) {
  const { song, offerPreview, controls } = usePlayerView();
  if (!offerPreview) return null;
  return (
    <button
      type="button"
      onClick={controls.preview}
      aria-label={`Preview ${song.title} (30 seconds)`}
      title={`Preview ${song.title} (30 seconds)`}
      data-testid="player-preview"
      className={cx(
        'inline-flex h-7 shrink-0 items-center gap-1 rounded-pill border border-line px-2 text-meta font-semibold text-text transition-colors duration-150 hover:border-muted hover:bg-surface-2',
        className,
      )}
    >
      <Headphones size={14} strokeWidth={1.75} aria-hidden="true" />
      Preview
    </button>
  );
}

/**
 * The way in for a locked song the player holds (the app's lock action: buy the song or album, or subscribe), next
 * to its preview: pressing play on it is never a dead end.
 */
export function PlayerUnlockButton({ look = 'row' }: { look?: 'row' | 'header' }) {
  const { song } = usePlayerView();
  const LockAction = use(SongLockActionContext);
  if (song.canPlay !== false || !LockAction) return null;
  return (
    <span className="shrink-0" data-testid="player-unlock">
      <LockAction song={song} look={look} />
    </span>
  );
}

/**
 * At the end of a preview: what was heard was the preview, and the way in (buy the song or album, or subscribe,
 * from the app's song lock action) with "Play preview again". Sits above the player bars; not modal.
 */
export function PreviewEndPrompt() {
  const { song, preview, controls } = usePlayerView();
  const LockAction = use(SongLockActionContext);
  if (!preview?.ended) return null;
  const singer = song.singer || song.artist?.name;
  return (
    <section
      aria-labelledby="preview-end-heading"
      data-testid="preview-end-prompt"
      className={cx(
        'fixed z-40 rounded-card border border-line bg-surface p-4 shadow-2xl shadow-black/60',
        'inset-x-3 bottom-[calc(4rem+3.5rem+env(safe-area-inset-bottom)+0.5rem)]',
        'md:inset-x-auto md:bottom-[calc(88px+0.75rem)] md:left-4 md:w-[24rem]',
      )}
    >
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1" aria-live="polite">
          <h2 id="preview-end-heading" className="text-body font-semibold text-text">
            That was the preview
          </h2>
          <p className="mt-1 text-meta text-muted">
            Hear all of “{song.title}”{singer ? ` by ${singer}` : ''}: unlock it to play the whole song, any
            time.
          </p>
        </div>
        <IconButton label="Close" size="sm" onClick={controls.dismissPreview}>
          <X size={16} strokeWidth={1.75} aria-hidden="true" />
        </IconButton>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        {LockAction ? <LockAction song={song} look="header" /> : null}
        <Button
          variant="secondary"
          size="sm"
          onClick={controls.preview}
          icon={<RotateCcw size={14} strokeWidth={1.75} aria-hidden="true" />}
        >
          Play preview again
        </Button>
      </div>
    </section>
  );
}
