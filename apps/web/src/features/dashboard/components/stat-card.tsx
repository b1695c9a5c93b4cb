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
    <div className="rounded-card border border-line bg-surface p-5">
      <div className="flex items-center justify-between gap-2 text-meta font-medium uppercase tracking-wider text-muted">
        <span>{label}</span>
        <span aria-hidden="true" className="text-accent">
          {icon}
        </span>
      </div>
      {loading ? (
        <Skeleton className="mt-3 h-8 w-24" />
      ) : (
        <p className="mt-2 text-h2 font-bold tabular-nums">{value}</p>
      )}
    </div>
  );
}
