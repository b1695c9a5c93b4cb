import { cx } from '../../../components/ui';

/** A determinate progress bar (uploads): announced with its percentage, accent fill on the line colour. */
export function ProgressBar({
  label,
  value,
  className,
}: {
  /** Names the bar for screen readers and shows above it. */
  label: string;
  /** 0..1 */
  value: number;
  className?: string;
}) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <div className="flex items-center justify-between gap-3 text-meta">
        <span className="truncate text-muted">{label}</span>
        <span className="tabular-nums text-text">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-1.5 overflow-hidden rounded-pill bg-line"
      >
        <div
          className="h-full rounded-pill bg-accent transition-[width] duration-150 ease-out motion-reduce:transition-none"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
