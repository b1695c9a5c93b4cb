import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '../lib/toast';
import {
  AuthForm,
  AuthIntro,
  BackToLogin,
  PasswordField,
  authRequests,
  useAuthForm,
  validateNewPassword,
  validatePasswordConfirmation,
} from '../features/auth';

export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const form = useAuthForm({
    initial: { password: '', confirmation: '' },
    validate: ({ password, confirmation }) => ({
      password: validateNewPassword(password),
      confirmation: validatePasswordConfirmation(password, confirmation),
    }),
    send: async ({ password }) => {
      const answer = await authRequests.resetPassword(token, password);
      toast.success(answer?.message || 'Your password has been changed. Please log in.');
      void navigate('/login', { replace: true });
      return undefined;
    },
    failureText: 'This reset link is invalid or has expired.',
  });

  return (
    <>
      <AuthIntro title="Choose a new password">Pick something you don&apos;t use anywhere else.</AuthIntro>
      <AuthForm
        form={form}
        submit="Save new password"
        failureAction={
          <Link to="/forgot-password" className="font-semibold underline underline-offset-4">
            Request a new link
          </Link>
        }
      >
        <PasswordField
          label="New password"
          autoComplete="new-password"
          required
          hint="At least 8 characters."
          {...form.field('password')}
        />
        <PasswordField
          label="Repeat new password"
          autoComplete="new-password"
          required
          {...form.field('confirmation')}
        />
      </AuthForm>
      <BackToLogin />
    </>
  );
}
