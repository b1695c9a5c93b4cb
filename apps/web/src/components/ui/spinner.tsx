import { cx } from './class-names';

const heights = { sm: 'h-3.5', md: 'h-6', lg: 'h-10' };
const barWidths = { sm: 'w-[3px]', md: 'w-1', lg: 'w-1.5' };
const gaps = { sm: 'gap-[2px]', md: 'gap-[3px]', lg: 'gap-1' };
const tones = { accent: 'bg-accent', onAccent: 'bg-bg', muted: 'bg-muted' };

/** The loading animation: four equaliser bars. A label is announced to screen readers. */
export function Spinner({
  size = 'md',
  tone = 'accent',
  label,
  className,
}: {
  size?: 'sm' | 'md' | 'lg';
  tone?: 'accent' | 'onAccent' | 'muted';
  /** When set the spinner is a live status; otherwise it is decorative (the caller labels the busy element). */
  label?: string;
  className?: string;
}) {
  return (
    <span
      className={cx('inline-flex items-end', heights[size], gaps[size], className)}
      role={label ? 'status' : undefined}
      aria-hidden={label ? undefined : true}
    >
      {[0, 180, 360, 540].map((delay) => (
        <span
          key={delay}
          className={cx('h-full origin-bottom animate-equalizer rounded-pill', barWidths[size], tones[tone])}
          style={{ animationDelay: `${delay - 900}ms` }}
        />
      ))}
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
