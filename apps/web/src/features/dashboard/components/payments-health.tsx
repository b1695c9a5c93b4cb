import { useState, type FormEvent } from 'react';
import { AlertTriangle, CheckCircle2, RefreshCw, ShieldCheck, XCircle } from 'lucide-react';
import { toast } from '../../../lib/toast';
import type { PaymentIssue, ReconciliationRunEntry } from '@backbeat/contract';
import {
  Button,
  EmptyState,
  FormAlert,
  Modal,
  QueryErrorState,
  Section,
  Skeleton,
  TextField,
} from '../../../components/ui';
import { queryErrorText } from '../../../lib/api-query';
import { formatMoney } from '../../../lib/format';
import {
  useGetPaymentsHealthQuery,
  useReconcileNowMutation,
  useResolvePaymentIssueMutation,
} from '../dashboard.api';

const GATEWAY_NAMES: Record<string, string> = {
  stripe: 'Stripe',
  razorpay: 'Razorpay',
  paypal: 'PayPal',
  sandbox: 'Demo gateway',
};

export const ISSUE_LABELS: Record<PaymentIssue['kind'], string> = {
  amount_mismatch: 'Captured another amount',
  duplicate_payment: 'Second payment for an owned item',
  unknown_payment: 'Payment no order knows',
  refund_failed: 'Automatic refund keeps failing',
  cancel_failed: 'Cancellation at the gateway keeps failing',
};

const dateTime = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/**
 * The money's health, for admins: each gateway's latest reconciliation (when, what it read, what webhooks had missed
 * and it applied, what it could not settle), a button to reconcile now, and the payments that need attention.
 */
export function PaymentsHealth() {
  const health = useGetPaymentsHealthQuery();
  const [reconcile, reconciling] = useReconcileNowMutation();
  const [resolving, setResolving] = useState<PaymentIssue | null>(null);

  async function runNow() {
    const result = await reconcile();
    if ('error' in result && result.error) {
      toast.error(queryErrorText(result.error, 'Reconciliation could not run. Please try again.'));
      return;
    }
    const runs = result.data?.runs ?? [];
    const fixed = runs.reduce((sum, run) => sum + run.fixed, 0);
    const failed = runs.filter((run) => run.status === 'failed').length;
    if (failed > 0) toast.error(`Reconciliation failed for ${failed} gateway${failed === 1 ? '' : 's'}`);
    else
      toast.success(
        fixed > 0
          ? `Reconciled: ${fixed} change${fixed === 1 ? '' : 's'} applied`
          : 'Reconciled: nothing was missing',
      );
  }

  const data = health.data;
  const latest = (gateway: string) => data?.runs.find((run) => run.gateway === gateway) ?? null;
  const open = data?.issues.filter((issue) => issue.status === 'open') ?? [];
  const resolved = data?.issues.filter((issue) => issue.status === 'resolved').slice(0, 5) ?? [];

  return (
    <Section
      title="Payments health"
      headingId="payments-health"
      action={
        data && data.gateways.length > 0 ? (
          <Button
            variant="secondary"
            size="sm"
            loading={reconciling.isLoading}
            icon={<RefreshCw size={16} strokeWidth={1.75} aria-hidden="true" />}
            onClick={() => void runNow()}
          >
            Reconcile now
          </Button>
        ) : null
      }
    >
      {health.isLoading ? (
        <div className="grid gap-3 md:grid-cols-3" aria-hidden="true">
          {Array.from({ length: 3 }, (_, index) => (
            <Skeleton key={index} className="h-32" />
          ))}
        </div>
      ) : health.isError || !data ? (
        <QueryErrorState query={health} fallback="Failed to fetch the payments' health" />
      ) : (
        <div className="flex flex-col gap-6">
          {data.gateways.length === 0 ? (
            <p className="text-body text-muted">
              No payment gateway is configured, so there is nothing to reconcile.
            </p>
          ) : (
            <ul className="grid gap-3 md:grid-cols-3" aria-label="Latest reconciliation of each gateway">
              {data.gateways.map((gateway) => (
                <li key={gateway}>
                  <RunCard gateway={gateway} run={latest(gateway)} />
                </li>
              ))}
            </ul>
          )}
          <div>
            <h3 className="mb-3 text-body font-semibold uppercase tracking-wider text-muted">
              Needs attention
            </h3>
            {open.length === 0 ? (
              <EmptyState
                icon={<ShieldCheck size={22} strokeWidth={1.75} />}
                title="Nothing needs attention"
                description="Every payment the gateways report is settled in the ledger."
              />
            ) : (
              <ul className="flex flex-col gap-2">
                {open.map((issue) => (
                  <IssueRow key={issue._id} issue={issue} onResolve={() => setResolving(issue)} />
                ))}
              </ul>
            )}
            {resolved.length > 0 ? (
              <details className="mt-3 text-body text-muted">
                <summary className="cursor-pointer">Recently settled ({resolved.length})</summary>
                <ul className="mt-2 flex flex-col gap-2">
                  {resolved.map((issue) => (
                    <IssueRow key={issue._id} issue={issue} />
                  ))}
                </ul>
              </details>
            ) : null}
          </div>
        </div>
      )}
      <ResolveDialog issue={resolving} onClose={() => setResolving(null)} />
    </Section>
  );
}

function RunCard({ gateway, run }: { gateway: string; run: ReconciliationRunEntry | null }) {
  const name = GATEWAY_NAMES[gateway] ?? gateway;
  if (!run) {
    return (
      <article className="h-full rounded-card border border-line bg-surface p-4">
        <h4 className="font-semibold">{name}</h4>
        <p className="mt-2 text-body text-muted">Not reconciled yet: the first run starts with the server.</p>
      </article>
    );
  }
  const ok = run.status === 'succeeded';
  return (
    <article className="h-full rounded-card border border-line bg-surface p-4">
      <div className="flex items-center justify-between gap-2">
        <h4 className="font-semibold">{name}</h4>
        <span
          className={`inline-flex items-center gap-1 text-meta font-medium ${ok ? 'text-ok' : 'text-danger'}`}
        >
          {ok ? (
            <CheckCircle2 size={14} strokeWidth={1.75} aria-hidden="true" />
          ) : (
            <XCircle size={14} strokeWidth={1.75} aria-hidden="true" />
          )}
          {run.status === 'running' ? 'Running' : ok ? 'Reconciled' : 'Failed'}
        </span>
      </div>
      <p className="mt-1 text-meta text-muted">
        {dateTime(run.startedAt)} · {run.trigger === 'admin' ? 'by an admin' : 'scheduled'}
      </p>
      <p className="mt-3 text-body tabular-nums">
        {run.examined} read · {run.fixed} applied · {run.problems} to look at
      </p>
      {run.error ? <FormAlert tone="error">{run.error}</FormAlert> : null}
      {run.fixes.length > 0 ? (
        <details className="mt-2 text-meta text-muted">
          <summary className="cursor-pointer">What webhooks had missed</summary>
          <ul className="mt-1 flex max-h-40 flex-col gap-1 overflow-y-auto break-words">
            {run.fixes.map((fix, index) => (
              <li key={index}>{fix}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </article>
  );
}

function IssueRow({ issue, onResolve }: { issue: PaymentIssue; onResolve?: () => void }) {
  const money = issue.amount !== null && issue.currency ? formatMoney(issue.amount, issue.currency) : null;
  return (
    <li className="flex flex-col gap-2 rounded-card border border-line bg-surface p-3 md:flex-row md:items-center md:justify-between">
      <div className="min-w-0">
        <p className="flex items-center gap-2 font-medium">
          <AlertTriangle size={16} strokeWidth={1.75} aria-hidden="true" className="shrink-0 text-accent-2" />
          {ISSUE_LABELS[issue.kind]}
          <span className="text-meta text-muted">
            · {GATEWAY_NAMES[issue.gateway] ?? issue.gateway}
            {money ? ` · ${money}` : ''}
          </span>
        </p>
        <p className="mt-1 text-meta text-muted break-words">
          {issue.detail} · {issue.externalId} · {dateTime(issue.createdAt)}
          {issue.resolution ? ` · settled: ${issue.resolution}` : ''}
        </p>
      </div>
      {onResolve ? (
        <Button variant="secondary" size="sm" onClick={onResolve}>
          Mark settled
        </Button>
      ) : null}
    </li>
  );
}

function ResolveDialog({ issue, onClose }: { issue: PaymentIssue | null; onClose: () => void }) {
  const [resolve, { isLoading }] = useResolvePaymentIssueMutation();
  const [resolution, setResolution] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!issue) return;
    const result = await resolve({ issueId: issue._id, resolution });
    if ('error' in result && result.error) {
      setError(queryErrorText(result.error, 'It could not be marked settled. Please try again.'));
      return;
    }
    setResolution('');
    setError(null);
    onClose();
  }

  return (
    <Modal
      open={issue !== null}
      title="Mark settled"
      description={issue ? ISSUE_LABELS[issue.kind] : undefined}
      busy={isLoading}
      onClose={onClose}
    >
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <TextField
          label="How was it settled?"
          value={resolution}
          required
          maxLength={500}
          onChange={(event) => setResolution(event.target.value)}
          error={error}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={isLoading} disabled={!resolution.trim()}>
            Mark settled
          </Button>
        </div>
      </form>
    </Modal>
  );
}
