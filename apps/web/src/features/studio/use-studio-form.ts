import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toast';
import { ApiError, errorText } from '../../lib/api';
import type { StudioEntity } from './studio.api';
import { STUDIO_MESSAGES } from './studio.messages';
import type { FieldErrors, FormMode } from './studio.types';
import { hasErrors, serverFieldErrors } from './studio.validation';
import { useStudioUpload, type MutationResponses } from './use-studio-upload';

export interface StudioFormOptions<Entity extends StudioEntity, Values, Field extends string> {
  entity: Entity;
  mode: FormMode;
  initial: Values;
  validate: (values: Values) => FieldErrors<Field>;
  labels: Record<Field, string>;
  /** Server field names that belong to another form field (e.g. `ownerId`). */
  aliases?: Partial<Record<string, Field>>;
}

/**
 * State and submission shared by the studio forms: values, client validation, the upload with progress, the
 * success toast, and the server's error as a toast plus an inline error on the field it names.
 */
export function useStudioForm<
  Entity extends StudioEntity,
  Values extends object,
  Field extends string & keyof Values,
>(options: StudioFormOptions<Entity, Values, Field>) {
  const { entity, mode, validate, labels, aliases } = options;
  const [values, setValues] = useState<Values>(options.initial);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const upload = useStudioUpload();
  const formRef = useRef<HTMLFormElement>(null);
  const [focusRequest, setFocusRequest] = useState(0);

  // After a failed check, move focus to the first field that needs attention.
  useEffect(() => {
    if (focusRequest === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const setField = useCallback(<Key extends keyof Values>(key: Key, value: Values[Key]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => {
      if (!(key in current) && !current.form) return current;
      const { [key as string]: _removed, form: _form, ...rest } = current as Record<string, string>;
      return rest as FieldErrors<Field>;
    });
  }, []);

  const reset = useCallback((next: Values) => {
    setValues(next);
    setErrors({});
  }, []);

  /** Validates, sends, toasts. Resolves with the server's answer, or null when nothing was saved. */
  async function submit(
    build: (values: Values) => FormData,
    id?: string,
    extraErrors: FieldErrors<Field> = {},
  ): Promise<MutationResponses[Entity] | null> {
    const found = { ...validate(values), ...extraErrors };
    setErrors(found);
    if (hasErrors(found)) {
      setFocusRequest((count) => count + 1);
      return null;
    }
    const messages = STUDIO_MESSAGES[entity];
    try {
      const answer = await upload.save(entity, build(values), id);
      const fallback = mode === 'create' ? messages.created : messages.updated;
      // Songs use the SPEC's exact words; artists and albums the server's own (same texts today).
      toast.success(entity === 'song' ? fallback : answer.message || fallback);
      return answer;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ABORTED') return null;
      const text = errorText(error, mode === 'create' ? messages.createFailed : messages.updateFailed);
      toast.error(text);
      const serverSaid = error instanceof ApiError && error.status > 0;
      const formError: FieldErrors<Field> = { form: text } as FieldErrors<Field>;
      setErrors(serverSaid ? serverFieldErrors<Field>(text, labels, aliases) : formError);
      setFocusRequest((count) => count + 1);
      return null;
    }
  }

  return { entity, mode, values, setField, errors, setErrors, reset, submit, upload, formRef };
}
