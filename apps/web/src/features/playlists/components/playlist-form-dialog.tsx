import { useId, useState, type FormEvent } from 'react';
import { ListMusic } from 'lucide-react';
import { Button, FormAlert, Modal, TextField, cx } from '../../../components/ui';
import { PLAYLIST_LIMITS } from '../playlists.constants';
import { validatePlaylistForm, type PlaylistFormValues } from '../playlist-form';

/**
 * Create or rename a playlist: a name (required, trimmed) and an optional description. `onSubmit` answers an
 * error text to show, or null once saved (the dialog then closes).
 */
export function PlaylistFormDialog({
  open,
  mode,
  initial = { name: '', description: '' },
  onSubmit,
  onClose,
}: {
  open: boolean;
  mode: 'create' | 'edit';
  initial?: PlaylistFormValues;
  onSubmit: (values: PlaylistFormValues) => Promise<string | null>;
  onClose: () => void;
}) {
  return (
    <Modal
      open={open}
      title={mode === 'create' ? 'New playlist' : 'Edit playlist'}
      icon={<ListMusic size={20} strokeWidth={1.75} className="text-accent" />}
      onClose={onClose}
    >
      {/* Remounted on every opening, so the form starts from `initial`. */}
      {open ? <PlaylistForm mode={mode} initial={initial} onSubmit={onSubmit} onClose={onClose} /> : null}
    </Modal>
  );
}

function PlaylistForm({
  mode,
  initial,
  onSubmit,
  onClose,
}: {
  mode: 'create' | 'edit';
  initial: PlaylistFormValues;
  onSubmit: (values: PlaylistFormValues) => Promise<string | null>;
  onClose: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof PlaylistFormValues, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const descriptionId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validatePlaylistForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    setServerError(null);
    const error = await onSubmit({ name: values.name.trim(), description: values.description.trim() });
    setSaving(false);
    if (error) setServerError(error);
    else onClose();
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
      {serverError ? <FormAlert>{serverError}</FormAlert> : null}
      <TextField
        label="Name"
        required
        autoFocus
        maxLength={PLAYLIST_LIMITS.nameLength + 20}
        value={values.name}
        error={errors.name}
        onChange={(event) => setValues({ ...values, name: event.target.value })}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={descriptionId} className="text-body font-medium text-text">
          Description <span className="text-meta font-normal text-muted">(optional)</span>
        </label>
        <textarea
          id={descriptionId}
          rows={3}
          value={values.description}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={`${descriptionId}-count`}
          onChange={(event) => setValues({ ...values, description: event.target.value })}
          className={cx(
            'w-full resize-y rounded-control border bg-surface-2 px-3 py-2 text-body text-text transition-colors duration-150 ease-out focus-visible:outline-2 focus-visible:outline-offset-0',
            errors.description ? 'border-danger' : 'border-line hover:border-muted/60',
          )}
        />
        <p
          id={`${descriptionId}-count`}
          className={cx('text-meta tabular-nums', errors.description ? 'text-danger' : 'text-muted')}
        >
          {errors.description ?? `${values.description.trim().length} / ${PLAYLIST_LIMITS.descriptionLength}`}
        </p>
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" loading={saving}>
          {mode === 'create' ? 'Create' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
