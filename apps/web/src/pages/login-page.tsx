import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useAppDispatch } from '../app/hooks';
import { Button, FormAlert, TextField } from '../components/ui';
import { PasswordField, SocialLogin, login, validateEmail } from '../features/auth';

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = {
      email: validateEmail(email) ?? undefined,
      password: password ? undefined : 'Password is required',
    };
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    setSubmitting(true);
    setFailure(null);
    // Success re-renders the guest-only guard, which moves the visitor to /home; failures toast via the listener.
    const result = await dispatch(login({ email: email.trim().toLowerCase(), password }));
    if (login.rejected.match(result)) {
      setFailure(result.payload ?? 'Login failed');
      setSubmitting(false);
    }
  }

  return (
    <>
      <title>Log in · Backbeat</title>
      <h1 className="text-h2 font-bold tracking-tight">Welcome back</h1>
      <p className="mt-2 text-body text-muted">Log in to pick up where the music left off.</p>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-8 flex flex-col gap-5">
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={fieldErrors.email}
        />
        <div className="flex flex-col gap-2">
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={fieldErrors.password}
          />
          <Link
            to="/forgot-password"
            className="self-end text-meta font-medium text-muted underline-offset-4 hover:text-text hover:underline"
          >
            Forgot password?
          </Link>
        </div>
        <Button type="submit" size="lg" loading={submitting} className="w-full">
          Log in
        </Button>
      </form>
      <SocialLogin />
      <p className="mt-8 text-center text-body text-muted">
        New to Backbeat?{' '}
        <Link to="/register" className="font-semibold text-text underline-offset-4 hover:underline">
          Create an account
        </Link>
      </p>
    </>
  );
}
