import { AlertTriangle, CheckCircle2, Loader2 } from 'lucide-react';
import type { ProcessingStatus } from '@backbeat/contract';
import { cx } from '../../../components/ui';

const looks: Record<ProcessingStatus, { label: string; className: string }> = {
  processing: { label: 'Processing', className: 'border-accent-2/40 bg-accent-2/10 text-accent-2' },
  ready: { label: 'Ready', className: 'border-ok/40 bg-ok/10 text-ok' },
  failed: { label: 'Failed', className: 'border-danger/40 bg-danger/10 text-danger' },
};

/** A song's processing status: icon and word, never colour alone. */
export function StatusBadge({ status }: { status: ProcessingStatus }) {
  const look = looks[status];
  const Icon = status === 'ready' ? CheckCircle2 : status === 'failed' ? AlertTriangle : Loader2;
  return (
    <span
      data-status={status}
      className={cx(
        'inline-flex items-center gap-1 rounded-pill border px-2 py-0.5 text-meta font-medium',
        look.className,
      )}
    >
      <Icon
        size={14}
        strokeWidth={1.75}
        aria-hidden="true"
        className={status === 'processing' ? 'animate-spin motion-reduce:animate-none' : undefined}
      />
      {look.label}
    </span>
  );
}
