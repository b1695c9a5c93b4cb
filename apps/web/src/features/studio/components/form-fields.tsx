import {
  useEffect,
  useMemo,
  useRef,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { FileAudio, ImageIcon, X } from 'lucide-react';
import { FieldFrame, IconButton, cx, fieldControlClass } from '../../../components/ui';
import type { Artist } from '../studio.types';
import { IMAGE_ACCEPT, IMAGE_HINT } from '../studio.validation';

/**
 * Field controls the studio forms need beyond the kit's TextField, in the kit's FieldFrame: visible label, hint,
 * inline error with an icon, described-by wiring.
 */

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  options: ReadonlyArray<{ value: string; label: string }>;
}

export function SelectField({ label, error, hint, options, className, ...select }: SelectFieldProps) {
  return (
    <FieldFrame
      label={label}
      required={select.required}
      hint={hint}
      error={error}
      className={cx('min-w-0', className)}
    >
      {(control) => (
        <select {...control} className={cx(fieldControlClass(error), 'h-11')} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string | null;
  hint?: ReactNode;
}

export function TextAreaField({ label, error, hint, className, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame
      label={label}
      required={textarea.required}
      hint={hint}
      error={error}
      className={cx('min-w-0', className)}
    >
      {(control) => (
        <textarea
          {...control}
          rows={4}
          className={cx(fieldControlClass(error), 'min-h-24 resize-y py-2.5')}
          {...textarea}
        />
      )}
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
  const input = useRef<HTMLInputElement>(null);
  const preview = usePreview(file, kind === 'image');
  const image = preview ?? (kind === 'image' ? currentImage : null);
  const Icon = kind === 'audio' ? FileAudio : ImageIcon;

  // Clearing the state (e.g. a form reset) clears the native input too.
  useEffect(() => {
    if (!file && input.current) input.current.value = '';
  }, [file]);

  return (
    <FieldFrame
      label={label}
      required={required}
      hint={hint}
      error={error}
      className={cx('min-w-0', className)}
    >
      {(control) => (
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
              {...control}
              name={name}
              type="file"
              accept={accept}
              disabled={disabled}
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
      )}
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

/** A FileField for a picture (a cover, an artist's image): the accepted types, and a hint naming them. */
export function ImageField({
  note,
  ...field
}: Omit<FileFieldProps, 'kind' | 'accept' | 'hint'> & {
  /** Said after the accepted types in the hint. */
  note?: string;
}) {
  return (
    <FileField
      kind="image"
      accept={IMAGE_ACCEPT}
      hint={note ? `${IMAGE_HINT} ${note}` : IMAGE_HINT}
      {...field}
    />
  );
}

/** The artist a new song or album belongs to, for accounts that manage several artists. */
export function ArtistSelect({
  artists,
  value,
  onChange,
  error,
}: {
  artists: Artist[];
  value: string;
  onChange: (artistId: string) => void;
  error?: string;
}) {
  return (
    <SelectField
      label="Artist"
      name="artist"
      required
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      options={[
        { value: '', label: 'Choose an artist' },
        ...artists.map((artist) => ({ value: artist._id, label: artist.name })),
      ]}
    />
  );
}
