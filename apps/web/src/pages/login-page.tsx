import { Link } from 'react-router';
import { useAppDispatch } from '../app/hooks';
import {
  AuthForm,
  AuthIntro,
  EmailField,
  PasswordField,
  SocialLogin,
  login,
  useAuthForm,
  validateEmail,
} from '../features/auth';

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const form = useAuthForm({
    initial: { email: '', password: '' },
    validate: ({ email, password }) => ({
      email: validateEmail(email),
      password: password ? undefined : 'Password is required',
    }),
    // Success re-renders the guest-only guard, which moves the visitor to /home; failures toast via the listener.
    send: async ({ email, password }) => {
      const result = await dispatch(login({ email: email.trim().toLowerCase(), password }));
      return login.rejected.match(result) ? (result.payload ?? 'Login failed') : undefined;
    },
    failureText: 'Login failed',
  });

  return (
    <>
      <AuthIntro title="Log in" heading="Welcome back">
        Log in to pick up where the music left off.
      </AuthIntro>
      <AuthForm form={form} submit="Log in">
        <EmailField {...form.field('email')} />
        <div className="flex flex-col gap-2">
          <PasswordField
            label="Password"
            autoComplete="current-password"
            required
            {...form.field('password')}
          />
          <Link
            to="/forgot-password"
            className="self-end text-meta font-medium text-muted underline-offset-4 hover:text-text hover:underline"
          >
            Forgot password?
          </Link>
        </div>
      </AuthForm>
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
