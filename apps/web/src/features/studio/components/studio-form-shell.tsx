import type { ReactNode } from 'react';
import { Save } from 'lucide-react';
import { Link } from 'react-router';
import { Button, FormAlert, buttonClasses } from '../../../components/ui';
import { STUDIO_FORM_TEXTS } from '../studio.messages';
import type { StudioFormState } from './field-bindings';
import { UploadProgressList } from './upload-progress';

export interface StudioFormShellProps {
  /** Its entity and mode name the form and its submit button (STUDIO_FORM_TEXTS). */
  form: Pick<StudioFormState<unknown, string>, 'entity' | 'mode' | 'errors' | 'upload' | 'formRef'>;
  /** Called on submit (the browser's own submission is prevented). */
  onSubmit: () => Promise<void>;
  /** The submit button's icon when creating; defaults to the save icon (an edit always has it). */
  createIcon?: ReactNode;
  /** The files the form sends, one progress bar each while uploading. */
  files: ReadonlyArray<{ field: string; label: string; file: File | null }>;
  children: ReactNode;
}

/**
 * The frame every studio form shares: the card, the form-level error, per-file upload progress, and the
 * Cancel / submit row.
 */
export function StudioFormShell({ form, onSubmit, createIcon, files, children }: StudioFormShellProps) {
  const { upload, mode } = form;
  const texts = STUDIO_FORM_TEXTS[form.entity];
  const saveIcon = <Save size={18} strokeWidth={1.75} aria-hidden="true" />;
  return (
    <form
      ref={form.formRef}
      noValidate
      aria-label={texts[mode]}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
      className="flex flex-col gap-6 rounded-card border border-line bg-surface p-4 md:p-6"
    >
      {form.errors.form ? <FormAlert>{form.errors.form}</FormAlert> : null}
      {children}
      {upload.uploading ? <UploadProgressList progress={upload.progress} files={files} /> : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link to="/studio" className={buttonClasses({ variant: 'secondary' })}>
          Cancel
        </Link>
        <Button
          type="submit"
          loading={upload.uploading}
          icon={mode === 'create' ? (createIcon ?? saveIcon) : saveIcon}
        >
          {mode === 'create' ? texts.createSubmit : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}

/** A two-column (from `md`) group of fields. */
export function FormGrid({ children }: { children: ReactNode }) {
  return <div className="grid gap-5 md:grid-cols-2">{children}</div>;
}
