import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui';

/** One number on a dashboard, with its label. */
export function StatCard({
  label,
  value,
  icon,
  loading = false,
}: {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  loading?: boolean;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className="flex flex-col rounded-card border border-line bg-surface p-5"
    >
      <div className="flex items-center justify-between gap-2 text-meta font-medium uppercase tracking-wider text-muted">
        <span>{label}</span>
        <span aria-hidden="true" className="text-accent">
          {icon}
        </span>
      </div>
      {/* mt-auto: a label on two lines does not push this card's value below its neighbours'. */}
      <div className="mt-auto pt-2">
        {loading ? (
          <Skeleton className="mt-1 h-8 w-24" />
        ) : (
          <p className="text-h2 font-bold tabular-nums">{value}</p>
        )}
      </div>
    </div>
  );
}
