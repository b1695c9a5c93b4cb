import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { authRequests } from '../auth.requests';
import { validateNewPassword, validatePasswordConfirmation } from '../auth.validation';
import { CurrentPasswordField, PasswordField } from '../components/password-field';
import { SettingsCard } from './settings-card';
import { SettingsForm, SettingsNotice, useSettingsRequest } from './settings-form';

/** A new password (the current one first); every other session of the account ends. */
export function PasswordSettings() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ next?: string | null; repeat?: string | null }>({});
  const request = useSettingsRequest('Your password could not be changed');

  async function submit() {
    const problems = { next: validateNewPassword(next), repeat: validatePasswordConfirmation(next, repeat) };
    setErrors(problems);
    request.setFailure(null);
    request.setDone(null);
    if (problems.next || problems.repeat) return;
    if (await request.send(() => authRequests.changePassword(next, current || undefined))) {
      toast.success('Password changed', { id: 'settings' });
      setCurrent('');
      setNext('');
      setRepeat('');
    }
  }

  return (
    <SettingsCard
      id="settings-password"
      title="Password"
      description="Changing it signs you out everywhere else: other browsers and devices have to sign in again."
    >
      <SettingsForm
        onSubmit={submit}
        notice={request.done ? <SettingsNotice>{request.done}</SettingsNotice> : null}
        failure={request.failure}
        busy={request.busy}
        submitLabel="Change password"
      >
        <CurrentPasswordField
          label="Current password"
          name="current-password"
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
      </SettingsForm>
    </SettingsCard>
  );
}
