import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '../lib/toast';
import { NewPasswordFields } from './parts/new-password-fields';
import {
  AuthForm,
  AuthIntro,
  BackToLogin,
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
        <NewPasswordFields form={form} label="New password" />
      </AuthForm>
      <BackToLogin />
    </>
  );
}
