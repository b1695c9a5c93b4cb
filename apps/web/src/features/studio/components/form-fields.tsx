import {
  useEffect,
  useId,
  useMemo,
  useRef,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { AlertCircle, FileAudio, ImageIcon, X } from 'lucide-react';
import { IconButton, cx } from '../../../components/ui';

/**
 * Field controls the studio forms need beyond the kit's TextField, with the same look: visible label, hint,
 * inline error with an icon, described-by wiring.
 */

const controlClass = (error?: string | null) =>
  cx(
    'w-full rounded-control border bg-surface-2 px-3 text-body text-text transition-colors duration-150 ease-out focus-visible:outline-2 focus-visible:outline-offset-0',
    error ? 'border-danger' : 'border-line hover:border-muted/60',
  );

interface FieldFrameProps {
  id: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  error?: string | null;
  className?: string;
  children: ReactNode;
}

function FieldFrame({ id, label, required, hint, error, className, children }: FieldFrameProps) {
  return (
    <div className={cx('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-body font-medium text-text">
        {label}
        {required ? (
          <span className="text-muted" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-meta text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="flex items-center gap-1.5 text-meta text-danger">
          <AlertCircle size={14} strokeWidth={1.75} aria-hidden="true" />
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, hint: unknown, error: unknown) {
  return (
    [hint && !error ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') ||
    undefined
  );
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  options: ReadonlyArray<{ value: string; label: string }>;
}

export function SelectField({ label, error, hint, options, className, ...select }: SelectFieldProps) {
  const id = useId();
  return (
    <FieldFrame
      id={id}
      label={label}
      required={select.required}
      hint={hint}
      error={error}
      className={className}
    >
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={cx(controlClass(error), 'h-11')}
        {...select}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string | null;
  hint?: ReactNode;
}

export function TextAreaField({ label, error, hint, className, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  return (
    <FieldFrame
      id={id}
      label={label}
      required={textarea.required}
      hint={hint}
      error={error}
      className={className}
    >
      <textarea
        id={id}
        rows={4}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={cx(controlClass(error), 'min-h-24 resize-y py-2.5')}
        {...textarea}
      />
    </FieldFrame>
  );
}

function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** An object URL for a chosen image, revoked when it changes. */
function usePreview(file: File | null, enabled: boolean): string | null {
  const url = useMemo(
    () => (file && enabled && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null),
    [file, enabled],
  );
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

export interface FileFieldProps {
  label: string;
  name: string;
  accept: string;
  kind: 'audio' | 'image';
  file: File | null;
  onChange: (file: File | null) => void;
  required?: boolean;
  hint?: ReactNode;
  error?: string | null;
  /** The current image (edit forms), shown until a new one is chosen. */
  currentImage?: string | null;
  disabled?: boolean;
  className?: string;
}

/** A file input with the chosen file's name and size, an image preview, and a clear button. */
export function FileField({
  label,
  name,
  accept,
  kind,
  file,
  onChange,
  required,
  hint,
  error,
  currentImage,
  disabled,
  className,
}: FileFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const preview = usePreview(file, kind === 'image');
  const image = preview ?? (kind === 'image' ? currentImage : null);
  const Icon = kind === 'audio' ? FileAudio : ImageIcon;

  // Clearing the state (e.g. a form reset) clears the native input too.
  useEffect(() => {
    if (!file && input.current) input.current.value = '';
  }, [file]);

  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} error={error} className={className}>
      <div
        className={cx(
          'flex items-center gap-3 rounded-control border bg-surface-2 p-2',
          error ? 'border-danger' : 'border-line',
        )}
      >
        <div className="flex size-14 shrink-0 items-center justify-center overflow-hidden rounded-control bg-line text-muted">
          {image ? (
            <img src={image} alt="" className="size-full object-cover" />
          ) : (
            <Icon size={22} strokeWidth={1.75} aria-hidden="true" />
          )}
        </div>
        <div className="min-w-0 flex-1">
          <input
            ref={input}
            id={id}
            name={name}
            type="file"
            accept={accept}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy(id, hint, error)}
            onChange={(event) => onChange(event.target.files?.[0] ?? null)}
            className="block w-full min-w-0 text-body text-muted file:mr-3 file:h-9 file:cursor-pointer file:rounded-control file:border file:border-line file:bg-surface file:px-3 file:font-semibold file:text-text hover:file:border-muted"
          />
          {file ? (
            <p className="mt-1 truncate text-meta text-muted tabular-nums">
              {file.name} · {fileSize(file.size)}
            </p>
          ) : null}
        </div>
        {file ? (
          <IconButton
            label={`Remove the chosen ${label.toLowerCase()}`}
            size="sm"
            onClick={() => onChange(null)}
          >
            <X size={16} strokeWidth={1.75} aria-hidden="true" />
          </IconButton>
        ) : null}
      </div>
    </FieldFrame>
  );
}

export function CheckboxField({
  label,
  description,
  checked,
  onChange,
  name,
}: {
  label: string;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  name: string;
}) {
  return (
    <label className="flex items-start gap-3 text-body text-text">
      <input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-4 shrink-0 accent-[var(--color-accent)]"
      />
      <span>
        <span className="font-medium">{label}</span>
        {description ? <span className="block text-meta text-muted">{description}</span> : null}
      </span>
    </label>
  );
}
