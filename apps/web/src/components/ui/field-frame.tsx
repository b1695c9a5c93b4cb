import { useId, type ReactNode } from 'react';
import { AlertCircle } from 'lucide-react';
import { cx } from './class-names';

/** The base look of a bordered form control; red border on error. */
export const fieldControlClass = (error?: string | null) =>
  cx(
    'w-full rounded-control border bg-surface-2 px-3 text-body text-text transition-colors duration-150 ease-out focus-visible:outline-2 focus-visible:outline-offset-0',
    error ? 'border-danger' : 'border-line hover:border-muted/60',
  );

/** An inline error: icon + text, never colour alone. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="flex items-center gap-1.5 text-meta text-danger">
      <AlertCircle size={14} strokeWidth={1.75} aria-hidden="true" />
      {children}
    </p>
  );
}

/** The attributes a framed control carries: its id, invalid state and the hint/error it is described by. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FieldFrameProps {
  label: string;
  /** Defaults to a generated id. */
  id?: string;
  required?: boolean;
  hint?: ReactNode;
  error?: string | null;
  className?: string;
  /** Renders the control with the wiring it must carry. */
  children: (control: FieldControlProps) => ReactNode;
}

/** A visible label (with a required marker), the control, then its hint or its inline error. */
export function FieldFrame({ label, id, required, hint, error, className, children }: FieldFrameProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const showHint = Boolean(hint) && !error;
  const describedBy =
    [showHint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={controlId} className="text-body font-medium text-text">
        {label}
        {required ? (
          <span className="text-muted" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children({ id: controlId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {showHint ? (
        <p id={hintId} className="text-meta text-muted">
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}
