import type { RefObject } from 'react';
import type { StudioEntity } from '../studio.api';
import type { FieldErrors, FormMode } from '../studio.types';
import type { StudioUpload } from '../use-studio-upload';

/**
 * The wiring of the studio forms' fields to `useStudioForm`'s values: each binding is spread into its control,
 * e.g. `<TextField label="Title" {...textField(form, 'title')} />`.
 */

/** The parts of `useStudioForm`'s answer the shell and the field bindings read. */
export interface StudioFormState<Values, Field extends string> {
  entity: StudioEntity;
  mode: FormMode;
  values: Values;
  errors: FieldErrors<Field>;
  setField: <Key extends keyof Values>(key: Key, value: Values[Key]) => void;
  upload: StudioUpload;
  formRef: RefObject<HTMLFormElement | null>;
}

type BoundForm<Values, Field extends string> = Pick<
  StudioFormState<Values, Field>,
  'values' | 'errors' | 'setField'
>;

type KeysOf<Values, Type> = { [Key in keyof Values]: Values[Key] extends Type ? Key : never }[keyof Values];

/** A text input, textarea or the genre input: `name`, `value`, `onChange` and its inline `error`. */
export function textField<Values, Field extends string, Key extends KeysOf<Values, string> & Field>(
  form: BoundForm<Values, Field>,
  key: Key,
) {
  return {
    name: key,
    value: form.values[key] as string,
    onChange: (event: { target: { value: string } }) => form.setField(key, event.target.value as Values[Key]),
    error: form.errors[key],
  };
}

/** A decimal amount such as a price: the text wiring plus the numeric keyboard, without autofill. */
export function decimalField<Values, Field extends string, Key extends KeysOf<Values, string> & Field>(
  form: BoundForm<Values, Field>,
  key: Key,
) {
  return { inputMode: 'decimal' as const, autoComplete: 'off', ...textField(form, key) };
}

/** A CheckboxField: `name`, `checked`, `onChange`. */
export function checkboxField<Values, Field extends string, Key extends KeysOf<Values, boolean> & Field>(
  form: BoundForm<Values, Field>,
  key: Key,
) {
  return {
    name: key,
    checked: form.values[key] as boolean,
    onChange: (checked: boolean) => form.setField(key, checked as Values[Key]),
  };
}

/** A FileField: `name`, `file`, `onChange`, its `error`, and disabled while the form uploads. */
export function fileField<Values, Field extends string, Key extends KeysOf<Values, File | null> & Field>(
  form: BoundForm<Values, Field> & Pick<StudioFormState<Values, Field>, 'upload'>,
  key: Key,
) {
  return {
    name: key,
    file: form.values[key] as File | null,
    onChange: (file: File | null) => form.setField(key, file as Values[Key]),
    error: form.errors[key],
    disabled: form.upload.uploading,
  };
}

/**
 * An ArtistSelect (song and album forms): `value`, `onChange` and its `error`. Choosing another artist also sets
 * `dependent` (the album, or the track list) back to `cleared`: what was picked belonged to the artist before.
 */
export function artistField<
  Values extends { artist: string },
  Field extends string,
  Key extends keyof Values,
>(form: BoundForm<Values, Field | 'artist'>, dependent: Key, cleared: Values[Key]) {
  return {
    value: form.values.artist,
    onChange: (artistId: string) => {
      form.setField('artist', artistId as Values['artist']);
      form.setField(dependent, cleared);
    },
    error: form.errors.artist,
  };
}
