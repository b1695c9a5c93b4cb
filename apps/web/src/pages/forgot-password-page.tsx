import { useState, type FormEvent } from 'react';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from '../lib/toast';
import { Button, FormAlert, TextField } from '../components/ui';
import { authRequests, validateEmail } from '../features/auth';
import { errorText } from '../lib/api';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const error = validateEmail(email);
    setFieldError(error);
    if (error) return;
    setSubmitting(true);
    setFailure(null);
    try {
      const answer = await authRequests.forgotPassword(email.trim().toLowerCase());
      setSentMessage(answer?.message || 'If an account exists for that address, a reset link is on its way.');
    } catch (failed) {
      const message = errorText(failed, 'Could not send the reset link. Please try again.');
      setFailure(message);
      toast.error(message);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <>
      <title>Forgot password · Backbeat</title>
      <h1 className="text-h2 font-bold tracking-tight">Reset your password</h1>
      <p className="mt-2 text-body text-muted">
        Enter the e-mail address of your account and we&apos;ll send you a link to choose a new password.
      </p>
      {sentMessage ? (
        <div className="mt-8 flex flex-col gap-6">
          <FormAlert tone="success">{sentMessage}</FormAlert>
          <p className="text-body text-muted">
            The link works once and expires soon. Check your spam folder too.
          </p>
        </div>
      ) : (
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
            error={fieldError}
          />
          <Button type="submit" size="lg" loading={submitting} className="w-full">
            Send reset link
          </Button>
        </form>
      )}
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
