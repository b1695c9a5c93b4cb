import { useState, type FormEvent } from 'react';
import { Trash2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { Button, FormAlert, cx } from '../../../components/ui';
import { errorText } from '../../../lib/api';
import { backbeatApi } from '../../../lib/api-query';
import { authRequests } from '../auth.requests';
import { sessionEnded } from '../auth.slice';
import { useAuthStore } from '../settings/use-auth-store';
import { CurrentPasswordField } from './password-field';

/**
 * Deletes the account with the existing flow (DELETE /users/me: the password where the account has one), then logs
 * out locally and leaves for the landing page. On the data deletion page and in settings.
 */
export function DeleteAccountForm({ className }: { className?: string }) {
  const { user, dispatch } = useAuthStore();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  if (!user) return null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!confirmed) {
      setFailure('Please confirm that you understand the deletion cannot be undone.');
      return;
    }
    setSubmitting(true);
    setFailure(null);
    try {
      const answer = await authRequests.deleteAccount(password || undefined);
      toast.success(answer?.message || 'Your account has been deleted.');
      // The server has ended the session with the account; log out locally and leave.
      dispatch(sessionEnded());
      dispatch(backbeatApi.util.resetApiState());
      void navigate('/', { replace: true });
    } catch (failed) {
      const message = errorText(failed, 'Your account could not be deleted. Please try again.');
      setFailure(message);
      toast.error(message);
      setSubmitting(false);
    }
  }

  return (
    <section
      aria-labelledby="delete-title"
      className={cx('rounded-card border border-danger/40 bg-danger/5 p-6 md:p-8', className)}
    >
      <h2 id="delete-title" className="flex items-center gap-2 text-h3 font-semibold">
        <Trash2 size={20} strokeWidth={1.75} aria-hidden="true" className="text-danger" />
        Delete your account
      </h2>
      <p className="mt-2 text-body text-muted">
        You are logged in as <strong className="text-text">{user.email}</strong>. Deleting the account is
        immediate and cannot be undone.
      </p>
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="mt-6 flex max-w-md flex-col gap-5"
      >
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <CurrentPasswordField
          label="Your password"
          name="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <label className="flex items-start gap-3 text-body text-text">
          <input
            type="checkbox"
            checked={confirmed}
            onChange={(event) => setConfirmed(event.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-[var(--color-danger)]"
          />
          I understand that my profile, library and purchases will be deleted and cannot be restored.
        </label>
        <Button type="submit" variant="danger" loading={submitting} className="self-start">
          Delete my account
        </Button>
      </form>
    </section>
  );
}
