import type { ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { cx } from './class-names';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  /** At most one action, per the design brief. */
  action?: ReactNode;
  tone?: 'neutral' | 'error';
  className?: string;
}

/** What a screen shows when there is nothing to list, or when loading failed (`tone="error"`). */
export function EmptyState({
  icon,
  title,
  description,
  action,
  tone = 'neutral',
  className,
}: EmptyStateProps) {
  const isError = tone === 'error';
  return (
    <div
      role={isError ? 'alert' : undefined}
      className={cx(
        'flex flex-col items-center justify-center gap-3 rounded-card border border-dashed border-line px-6 py-12 text-center',
        className,
      )}
    >
      <div
        className={cx(
          'flex size-12 items-center justify-center rounded-pill',
          isError ? 'bg-danger/15 text-danger' : 'bg-surface-2 text-muted',
        )}
        aria-hidden="true"
      >
        {isError ? <AlertTriangle size={22} strokeWidth={1.75} /> : icon}
      </div>
      <h2 className="text-h4 font-semibold text-text">{title}</h2>
      {description ? <div className="max-w-md text-body text-muted">{description}</div> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
