import type { ComponentProps } from 'react';
import { PasswordField } from '../../features/auth';

/** A form (`useAuthForm`) with, among others, a new password and its repetition. */
type NewPasswordForm = {
  field: (name: 'password' | 'confirmation') => Partial<ComponentProps<typeof PasswordField>>;
};

/**
 * Choosing a password (register, reset password): the password with its rule as a hint, then the same again,
 * both required and offered to the password manager as a new password.
 */
export function NewPasswordFields({
  form,
  label,
}: {
  form: NewPasswordForm;
  label: 'Password' | 'New password';
}) {
  return (
    <>
      <PasswordField
        label={label}
        autoComplete="new-password"
        required
        hint="At least 8 characters."
        {...form.field('password')}
      />
      <PasswordField
        label={`Repeat ${label.toLowerCase()}`}
        autoComplete="new-password"
        required
        {...form.field('confirmation')}
      />
    </>
  );
}
