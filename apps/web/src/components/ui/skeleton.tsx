import { cx } from './class-names';

/** A placeholder block shaped like the content that will replace it. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cx('animate-shimmer rounded-control bg-surface-2', className)} />;
}
