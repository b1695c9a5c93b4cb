import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import { Button, FormAlert } from '../../../components/ui';
import { errorText } from '../../../lib/api';
import { authRequests } from '../auth.requests';
import { validateNewPassword, validatePasswordConfirmation } from '../auth.validation';
import { PasswordField } from '../components/password-field';
import { SettingsCard } from './settings-card';

/** A new password (the current one first); every other session of the account ends. */
export function PasswordSettings() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ next?: string | null; repeat?: string | null }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = { next: validateNewPassword(next), repeat: validatePasswordConfirmation(next, repeat) };
    setErrors(problems);
    setFailure(null);
    setDone(null);
    if (problems.next || problems.repeat) return;
    setBusy(true);
    try {
      const answer = await authRequests.changePassword(next, current || undefined);
      setDone(answer.message);
      toast.success('Password changed', { id: 'settings' });
      setCurrent('');
      setNext('');
      setRepeat('');
    } catch (failed) {
      setFailure(errorText(failed, 'Your password could not be changed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <SettingsCard
      id="settings-password"
      title="Password"
      description="Changing it signs you out everywhere else: other browsers and devices have to sign in again."
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="flex max-w-md flex-col gap-4">
        {done ? (
          <p role="status" className="rounded-control border border-ok/40 bg-ok/10 px-3 py-2 text-body">
            {done}
          </p>
        ) : null}
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <PasswordField
          label="Current password"
          name="current-password"
          autoComplete="current-password"
          value={current}
          hint="Leave empty to set a first password after signing in with a social account."
          onChange={(event) => setCurrent(event.target.value)}
        />
        <PasswordField
          label="New password"
          name="new-password"
          autoComplete="new-password"
          value={next}
          error={errors.next}
          hint="At least 8 characters."
          onChange={(event) => setNext(event.target.value)}
        />
        <PasswordField
          label="Repeat the new password"
          name="repeat-password"
          autoComplete="new-password"
          value={repeat}
          error={errors.repeat}
          onChange={(event) => setRepeat(event.target.value)}
        />
        <Button type="submit" loading={busy} className="self-start">
          Change password
        </Button>
      </form>
    </SettingsCard>
  );
}
