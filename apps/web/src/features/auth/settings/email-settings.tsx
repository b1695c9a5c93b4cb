import { useState } from 'react';
import { MailCheck } from 'lucide-react';
import { TextField } from '../../../components/ui';
import { authRequests } from '../auth.requests';
import { validateEmail } from '../auth.validation';
import { CurrentPasswordField } from '../components/password-field';
import { SettingsCard } from './settings-card';
import { SettingsForm, SettingsNotice, useSettingsRequest } from './settings-form';
import { useAuthStore } from './use-auth-store';

/** A new e-mail address: confirmed through a link mailed to it; nothing changes until it is opened. */
export function EmailSettings() {
  const { user } = useAuthStore();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const request = useSettingsRequest('The confirmation link could not be sent');
  if (!user) return null;

  async function submit() {
    const problem = validateEmail(email);
    setEmailError(problem);
    request.setFailure(null);
    if (problem) return;
    if (await request.send(() => authRequests.requestEmailChange(email.trim(), password || undefined))) {
      setEmail('');
      setPassword('');
    }
  }

  return (
    <SettingsCard
      id="settings-email"
      title="E-mail address"
      description={
        <>
          You sign in with <strong className="text-text">{user.email}</strong>. A new address takes effect
          once you open the link we mail to it; we tell the old address too.
        </>
      }
    >
      <SettingsForm
        onSubmit={submit}
        notice={
          request.done ? (
            <SettingsNotice
              icon={
                <MailCheck
                  size={18}
                  strokeWidth={1.75}
                  aria-hidden="true"
                  className="mt-0.5 shrink-0 text-ok"
                />
              }
            >
              {request.done}
            </SettingsNotice>
          ) : null
        }
        failure={request.failure}
        busy={request.busy}
        submitLabel="Send confirmation link"
      >
        <TextField
          label="New e-mail address"
          name="new-email"
          type="email"
          autoComplete="email"
          value={email}
          error={emailError}
          onChange={(event) => setEmail(event.target.value)}
        />
        <CurrentPasswordField
          label="Current password"
          name="email-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </SettingsForm>
    </SettingsCard>
  );
}
