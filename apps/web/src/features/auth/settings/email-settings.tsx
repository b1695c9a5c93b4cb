import { useState, type FormEvent } from 'react';
import { MailCheck } from 'lucide-react';
import { Button, FormAlert, TextField } from '../../../components/ui';
import { errorText } from '../../../lib/api';
import { authRequests } from '../auth.requests';
import { validateEmail } from '../auth.validation';
import { PasswordField } from '../components/password-field';
import { SettingsCard } from './settings-card';
import { useAuthStore } from './use-auth-store';

/** A new e-mail address: confirmed through a link mailed to it; nothing changes until it is opened. */
export function EmailSettings() {
  const { user } = useAuthStore();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!user) return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateEmail(email);
    setEmailError(problem);
    setFailure(null);
    if (problem) return;
    setBusy(true);
    try {
      const answer = await authRequests.requestEmailChange(email.trim(), password || undefined);
      setSent(answer.message);
      setEmail('');
      setPassword('');
    } catch (failed) {
      setFailure(errorText(failed, 'The confirmation link could not be sent'));
    } finally {
      setBusy(false);
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
      <form noValidate onSubmit={(event) => void submit(event)} className="flex max-w-md flex-col gap-4">
        {sent ? (
          <p
            role="status"
            className="flex items-start gap-2 rounded-control border border-ok/40 bg-ok/10 px-3 py-2 text-body"
          >
            <MailCheck size={18} strokeWidth={1.75} aria-hidden="true" className="mt-0.5 shrink-0 text-ok" />
            {sent}
          </p>
        ) : null}
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <TextField
          label="New e-mail address"
          name="new-email"
          type="email"
          autoComplete="email"
          value={email}
          error={emailError}
          onChange={(event) => setEmail(event.target.value)}
        />
        <PasswordField
          label="Current password"
          name="email-password"
          autoComplete="current-password"
          value={password}
          hint="Leave empty if you only ever signed in with a social account."
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button type="submit" loading={busy} className="self-start">
          Send confirmation link
        </Button>
      </form>
    </SettingsCard>
  );
}
