import { formatDuration } from '../../../lib/format';
import { cx } from '../../../components/ui';
import { usePlayerView } from './player-view';
import { RangeSlider } from './range-slider';

/** Elapsed time, the seek slider and the total time. */
export function SeekBar({ className, size = 'sm' }: { className?: string; size?: 'sm' | 'md' }) {
  const { currentTime, duration, controls, error, song } = usePlayerView();
  const elapsed = formatDuration(currentTime);
  const total = formatDuration(duration);
  return (
    <div className={cx('flex w-full items-center gap-3', className)}>
      <span
        className="w-10 shrink-0 text-right text-meta text-muted tabular-nums"
        data-testid="player-elapsed"
      >
        <span className="sr-only">Elapsed </span>
        {elapsed}
      </span>
      <RangeSlider
        label={`Seek in ${song.title}`}
        value={currentTime}
        max={duration}
        step={0.1}
        size={size}
        valueText={`${elapsed} of ${total}`}
        disabled={Boolean(error) || !(duration > 0)}
        onCommit={controls.seekTo}
        className="flex-1"
      />
      <span className="w-10 shrink-0 text-meta text-muted tabular-nums" data-testid="player-duration">
        <span className="sr-only">Total </span>
        {total}
      </span>
    </div>
  );
}
