import { Volume1, Volume2, VolumeX } from 'lucide-react';
import { IconButton, cx } from '../../../components/ui';
import { usePlayerView } from './player-view';
import { RangeSlider } from './range-slider';

/** Mute toggle and a 0 to 100 volume slider. */
export function VolumeControl({
  className,
  sliderClassName,
}: {
  className?: string;
  sliderClassName?: string;
}) {
  const { volume, muted, controls } = usePlayerView();
  const percent = Math.round(volume * 100);
  const Icon = volume === 0 ? VolumeX : volume < 0.5 ? Volume1 : Volume2;
  return (
    <div className={cx('flex items-center gap-1', className)}>
      <IconButton
        label={muted || volume === 0 ? 'Unmute' : 'Mute'}
        aria-pressed={muted}
        size="sm"
        onClick={controls.toggleMute}
      >
        <Icon size={18} strokeWidth={1.75} aria-hidden="true" />
      </IconButton>
      <RangeSlider
        label="Volume"
        value={percent}
        max={100}
        step={1}
        size="sm"
        valueText={`${percent}%`}
        onChange={(value) => controls.setVolume(value / 100)}
        className={cx('w-24', sliderClassName)}
      />
    </div>
  );
}
