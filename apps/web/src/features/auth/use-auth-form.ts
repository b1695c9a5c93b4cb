import { useState, type ChangeEvent, type FormEvent } from 'react';
import { errorText } from '../../lib/api';
import { toast } from '../../lib/toast';

/**
 * The sign-in pages' form cycle (log in, register, forgot and reset password): each field's value and inline
 * error, nothing sent while a field is wrong, a busy button while sending, and the failure above the fields.
 * `send` resolves to the message of a failure already announced (a rejected auth thunk toasts through the auth
 * listener) or to nothing on success; a thrown request error shows its server message (else `failureText`) and
 * toasts it. After a success the button stays busy: the page moves on or replaces the form.
 */
export function useAuthForm<Field extends string>({
  initial,
  validate,
  send,
  failureText,
}: {
  initial: Record<Field, string>;
  validate: (values: Record<Field, string>) => Record<Field, string | null | undefined>;
  send: (values: Record<Field, string>) => Promise<string | undefined>;
  failureText: string;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string | null>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit() {
    const found = validate(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSubmitting(true);
    setFailure(null);
    let message: string | undefined;
    try {
      message = await send(values);
    } catch (failed) {
      message = errorText(failed, failureText);
      toast.error(message);
    }
    if (message !== undefined) {
      setFailure(message);
      setSubmitting(false);
    }
  }

  return {
    failure,
    submitting,
    /** The props of the field `name`: its name attribute, value, change handler and error. */
    field: (name: Field) => ({
      name,
      value: values[name],
      error: errors[name],
      onChange: (event: ChangeEvent<HTMLInputElement>) =>
        setValues((current) => ({ ...current, [name]: event.target.value })),
    }),
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      void submit();
    },
  };
}

export type AuthForm = ReturnType<typeof useAuthForm>;
