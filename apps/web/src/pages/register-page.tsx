import { Link } from 'react-router';
import { useAppDispatch } from '../app/hooks';
import { NewPasswordFields } from './parts/new-password-fields';
import {
  AuthForm,
  AuthIntro,
  EmailField,
  SocialLogin,
  register,
  useAuthForm,
  validateEmail,
  validateName,
  validateNewPassword,
  validatePasswordConfirmation,
} from '../features/auth';
import { TextField } from '../components/ui';

export default function RegisterPage() {
  const dispatch = useAppDispatch();
  const form = useAuthForm({
    initial: { name: '', email: '', password: '', confirmation: '' },
    validate: (values) => ({
      name: validateName(values.name),
      email: validateEmail(values.email),
      password: validateNewPassword(values.password),
      confirmation: validatePasswordConfirmation(values.password, values.confirmation),
    }),
    send: async (values) => {
      const result = await dispatch(
        register({
          name: values.name.trim(),
          email: values.email.trim().toLowerCase(),
          password: values.password,
        }),
      );
      return register.rejected.match(result) ? (result.payload ?? 'Registration failed') : undefined;
    },
    failureText: 'Registration failed',
  });

  return (
    <>
      <AuthIntro title="Create your account">Free to join. Stream, like and collect from day one.</AuthIntro>
      <AuthForm
        form={form}
        submit="Create account"
        footer={
          <p className="text-meta text-muted">
            By creating an account you accept how we handle your data as described in our{' '}
            <Link to="/privacy-policy" className="text-text underline underline-offset-4">
              Privacy Policy
            </Link>
            .
          </p>
        }
      >
        <TextField label="Name" autoComplete="name" required {...form.field('name')} />
        <EmailField {...form.field('email')} />
        <NewPasswordFields form={form} label="Password" />
      </AuthForm>
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
