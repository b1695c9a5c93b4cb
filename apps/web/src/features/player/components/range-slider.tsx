import { useRef, useState, type KeyboardEvent } from 'react';
import { cx } from '../../../components/ui';

export interface RangeSliderProps {
  label: string;
  value: number;
  max: number;
  step?: number;
  /** Spoken value, e.g. '1:05 of 3:20'. */
  valueText?: string;
  /** Called while the value moves (keyboard changes and drags alike). */
  onChange?: (value: number) => void;
  /** Called once a drag ends, or at once for keyboard changes. */
  onCommit?: (value: number) => void;
  disabled?: boolean;
  className?: string;
  /** Thin track with the thumb shown only on hover and focus. */
  size?: 'sm' | 'md';
}

/**
 * A native range input (keyboard, screen readers and touch for free) over a styled track: accent fill, a thumb
 * on hover and focus, and the accent focus ring on the wrapper.
 */
export function RangeSlider({
  label,
  value,
  max,
  step = 1,
  valueText,
  onChange,
  onCommit,
  disabled = false,
  className,
  size = 'md',
}: RangeSliderProps) {
  const [dragValue, setDragValue] = useState<number | null>(null);
  const dragging = useRef(false);
  const shown = dragValue ?? value;
  const percent = max > 0 ? Math.min(100, Math.max(0, (shown / max) * 100)) : 0;

  const endDrag = () => {
    if (!dragging.current) return;
    dragging.current = false;
    if (dragValue !== null) onCommit?.(dragValue);
    setDragValue(null);
  };
  const onKeyUp = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key.startsWith('Arrow') || ['Home', 'End', 'PageUp', 'PageDown'].includes(event.key)) endDrag();
  };

  return (
    <div
      className={cx(
        'group relative flex items-center rounded-pill has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-4 has-[:focus-visible]:outline-accent',
        size === 'sm' ? 'h-4' : 'h-5',
        disabled && 'opacity-50',
        className,
      )}
    >
      <div className="h-1 w-full overflow-hidden rounded-pill bg-line">
        <div className="h-full rounded-pill bg-accent" style={{ width: `${percent}%` }} />
      </div>
      <div
        aria-hidden="true"
        className={cx(
          'pointer-events-none absolute top-1/2 size-3 -translate-x-1/2 -translate-y-1/2 rounded-pill bg-text shadow transition-opacity duration-150',
          size === 'sm'
            ? 'opacity-0 group-hover:opacity-100 group-has-[:focus-visible]:opacity-100'
            : 'opacity-100',
        )}
        style={{ left: `${percent}%` }}
      />
      <input
        type="range"
        aria-label={label}
        aria-valuetext={valueText}
        min={0}
        max={max > 0 ? max : 1}
        step={step}
        value={Math.min(shown, max > 0 ? max : 1)}
        disabled={disabled}
        onPointerDown={() => {
          dragging.current = true;
        }}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onKeyDown={() => {
          dragging.current = true;
        }}
        onKeyUp={onKeyUp}
        onBlur={endDrag}
        onChange={(event) => {
          const next = Number(event.target.value);
          onChange?.(next);
          if (dragging.current) setDragValue(next);
          else onCommit?.(next);
        }}
        className="absolute inset-0 m-0 size-full cursor-pointer appearance-none opacity-0 disabled:cursor-default"
      />
    </div>
  );
}
