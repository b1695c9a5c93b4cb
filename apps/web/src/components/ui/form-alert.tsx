import { AlertCircle, CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';

/** A message above or below a form: error (icon + text, announced) or success. */
export function FormAlert({ tone = 'error', children }: { tone?: 'error' | 'success'; children: ReactNode }) {
  const error = tone === 'error';
  return (
    <div
      role={error ? 'alert' : 'status'}
      className={`flex items-start gap-2 rounded-control border px-3 py-2.5 text-body ${
        error ? 'border-danger/40 bg-danger/10 text-text' : 'border-ok/40 bg-ok/10 text-text'
      }`}
    >
      {error ? (
        <AlertCircle size={18} strokeWidth={1.75} aria-hidden="true" className="mt-px shrink-0 text-danger" />
      ) : (
        <CheckCircle2 size={18} strokeWidth={1.75} aria-hidden="true" className="mt-px shrink-0 text-ok" />
      )}
      <div>{children}</div>
    </div>
  );
}
