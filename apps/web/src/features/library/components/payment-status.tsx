import { CheckCircle2, Clock, XCircle } from 'lucide-react';

const OK = new Set(['succeeded', 'success', 'paid', 'completed', 'captured', 'active', 'confirmed']);
const FAILED = new Set(['failed', 'declined', 'cancelled', 'canceled', 'refunded', 'expired']);

/** A payment or subscription status as icon + text (colour is never the only signal). */
export function PaymentStatus({ status }: { status?: string | null }) {
  const value = (status ?? 'pending').toLowerCase();
  const tone = OK.has(value) ? 'ok' : FAILED.has(value) ? 'failed' : 'pending';
  const Icon = tone === 'ok' ? CheckCircle2 : tone === 'failed' ? XCircle : Clock;
  return (
    <span
      className={`inline-flex items-center gap-1 text-meta font-medium capitalize ${
        tone === 'ok' ? 'text-ok' : tone === 'failed' ? 'text-danger' : 'text-muted'
      }`}
    >
      <Icon size={14} strokeWidth={1.75} aria-hidden="true" />
      {value}
    </span>
  );
}
