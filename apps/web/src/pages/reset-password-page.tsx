import { useState, type FormEvent } from 'react';
import { ArrowLeft } from 'lucide-react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '../lib/toast';
import { Button, FormAlert } from '../components/ui';
import {
  PasswordField,
  authRequests,
  validateNewPassword,
  validatePasswordConfirmation,
} from '../features/auth';
import { errorText } from '../lib/api';

export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = {
      password: validateNewPassword(password) ?? undefined,
      confirmation: validatePasswordConfirmation(password, confirmation) ?? undefined,
    };
    setErrors(next);
    if (next.password || next.confirmation) return;
    setSubmitting(true);
    setFailure(null);
    try {
      const answer = await authRequests.resetPassword(token, password);
      toast.success(answer?.message || 'Your password has been changed. Please log in.');
      void navigate('/login', { replace: true });
    } catch (failed) {
      const message = errorText(failed, 'This reset link is invalid or has expired.');
      setFailure(message);
      toast.error(message);
      setSubmitting(false);
    }
  }

  return (
    <>
      <title>Choose a new password · Backbeat</title>
      <h1 className="text-h2 font-bold tracking-tight">Choose a new password</h1>
      <p className="mt-2 text-body text-muted">Pick something you don&apos;t use anywhere else.</p>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-8 flex flex-col gap-5">
        {failure ? (
          <FormAlert>
            {failure}{' '}
            <Link to="/forgot-password" className="font-semibold underline underline-offset-4">
              Request a new link
            </Link>
          </FormAlert>
        ) : null}
        <PasswordField
          label="New password"
          name="password"
          autoComplete="new-password"
          required
          hint="At least 8 characters."
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
        />
        <PasswordField
          label="Repeat new password"
          name="confirmation"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          error={errors.confirmation}
        />
        <Button type="submit" size="lg" loading={submitting} className="w-full">
          Save new password
        </Button>
      </form>
      <Link
        to="/login"
        className="mt-8 inline-flex items-center gap-2 self-center text-body font-medium text-muted hover:text-text"
      >
        <ArrowLeft size={16} strokeWidth={1.75} aria-hidden="true" />
        Back to log in
      </Link>
    </>
  );
}
