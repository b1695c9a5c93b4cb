import { useState } from 'react';
import { FormAlert } from '../components/ui';
import {
  AuthForm,
  AuthIntro,
  BackToLogin,
  EmailField,
  authRequests,
  useAuthForm,
  validateEmail,
} from '../features/auth';

export default function ForgotPasswordPage() {
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const form = useAuthForm({
    initial: { email: '' },
    validate: ({ email }) => ({ email: validateEmail(email) }),
    send: async ({ email }) => {
      const answer = await authRequests.forgotPassword(email.trim().toLowerCase());
      setSentMessage(answer?.message || 'If an account exists for that address, a reset link is on its way.');
      return undefined;
    },
    failureText: 'Could not send the reset link. Please try again.',
  });

  return (
    <>
      <AuthIntro title="Forgot password" heading="Reset your password">
        Enter the e-mail address of your account and we&apos;ll send you a link to choose a new password.
      </AuthIntro>
      {sentMessage ? (
        <div className="mt-8 flex flex-col gap-6">
          <FormAlert tone="success">{sentMessage}</FormAlert>
          <p className="text-body text-muted">
            The link works once and expires soon. Check your spam folder too.
          </p>
        </div>
      ) : (
        <AuthForm form={form} submit="Send reset link">
          <EmailField {...form.field('email')} />
        </AuthForm>
      )}
      <BackToLogin />
    </>
  );
}
