import type { InputHTMLAttributes, ReactNode } from 'react';
import { FieldFrame, fieldControlClass } from './field-frame';
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
  return (
    <FieldFrame
      label={label}
      id={id}
      required={input.required}
      hint={hint}
      error={error}
      className={className}
    >
      {(control) => (
        <input
          {...control}
          className={cx(fieldControlClass(error), 'h-11 placeholder:text-muted/70')}
          {...input}
        />
      )}
    </FieldFrame>
  );
}
