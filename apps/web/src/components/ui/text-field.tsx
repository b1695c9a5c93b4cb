import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { AlertCircle } from 'lucide-react';
import { cx } from './class-names';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  /** Visible label (required: placeholders are not labels). */
  label: string;
  error?: string | null;
  hint?: ReactNode;
  id?: string;
}

/** A labelled input with an inline error (icon + text, never colour alone). */
export function TextField({ label, error, hint, id, className, ...input }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className="text-body font-medium text-text">
        {label}
        {input.required ? (
          <span className="text-muted" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cx(
          'h-11 w-full rounded-control border bg-surface-2 px-3 text-body text-text placeholder:text-muted/70 transition-colors duration-150 ease-out focus-visible:outline-2 focus-visible:outline-offset-0',
          error ? 'border-danger' : 'border-line hover:border-muted/60',
        )}
        {...input}
      />
      {hint && !error ? (
        <p id={hintId} className="text-meta text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="flex items-center gap-1.5 text-meta text-danger">
          <AlertCircle size={14} strokeWidth={1.75} aria-hidden="true" />
          {error}
        </p>
      ) : null}
    </div>
  );
}
