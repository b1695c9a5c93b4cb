import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useAppDispatch } from '../app/hooks';
import { Button, FormAlert, TextField } from '../components/ui';
import {
  PasswordField,
  SocialLogin,
  register,
  validateEmail,
  validateName,
  validateNewPassword,
  validatePasswordConfirmation,
} from '../features/auth';

type Field = 'name' | 'email' | 'password' | 'confirmation';

export default function RegisterPage() {
  const dispatch = useAppDispatch();
  const [values, setValues] = useState<Record<Field, string>>({
    name: '',
    email: '',
    password: '',
    confirmation: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const update = (field: Field) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = {
      name: validateName(values.name) ?? undefined,
      email: validateEmail(values.email) ?? undefined,
      password: validateNewPassword(values.password) ?? undefined,
      confirmation: validatePasswordConfirmation(values.password, values.confirmation) ?? undefined,
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    setSubmitting(true);
    setFailure(null);
    const result = await dispatch(
      register({
        name: values.name.trim(),
        email: values.email.trim().toLowerCase(),
        password: values.password,
      }),
    );
    if (register.rejected.match(result)) {
      setFailure(result.payload ?? 'Registration failed');
      setSubmitting(false);
    }
  }

  return (
    <>
      <title>Create your account · Backbeat</title>
      <h1 className="text-h2 font-bold tracking-tight">Create your account</h1>
      <p className="mt-2 text-body text-muted">Free to join. Stream, like and collect from day one.</p>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-8 flex flex-col gap-5">
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          required
          value={values.name}
          onChange={update('name')}
          error={errors.name}
        />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={values.email}
          onChange={update('email')}
          error={errors.email}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          hint="At least 8 characters."
          value={values.password}
          onChange={update('password')}
          error={errors.password}
        />
        <PasswordField
          label="Repeat password"
          name="confirmation"
          autoComplete="new-password"
          required
          value={values.confirmation}
          onChange={update('confirmation')}
          error={errors.confirmation}
        />
        <Button type="submit" size="lg" loading={submitting} className="w-full">
          Create account
        </Button>
        <p className="text-meta text-muted">
          By creating an account you accept how we handle your data as described in our{' '}
          <Link to="/privacy-policy" className="text-text underline underline-offset-4">
            Privacy Policy
          </Link>
          .
        </p>
      </form>
      <SocialLogin action="Sign up" />
      <p className="mt-8 text-center text-body text-muted">
        Already have an account?{' '}
        <Link to="/login" className="font-semibold text-text underline-offset-4 hover:underline">
          Log in
        </Link>
      </p>
    </>
  );
}
