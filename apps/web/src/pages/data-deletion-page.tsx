import { useState, type FormEvent } from 'react';
import { Trash2 } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { SUPPORT_EMAIL } from '../app/layout/nav-items';
import { Button, FormAlert, PageHeader, Prose } from '../components/ui';
import { PasswordField, authRequests, selectUser, sessionEnded } from '../features/auth';
import { errorText } from '../lib/api';
import { backbeatApi } from '../lib/api-query';

function DeleteAccountForm() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
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
      className="mt-12 max-w-3xl rounded-card border border-danger/40 bg-danger/5 p-6 md:p-8"
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
        <PasswordField
          label="Your password"
          name="password"
          autoComplete="current-password"
          hint="Leave empty if you only ever signed in with a social account."
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

export default function DataDeletionPage() {
  const user = useAppSelector(selectUser);
  return (
    <>
      <title>Data Deletion · Backbeat</title>
      <PageHeader
        eyebrow="Your data"
        title="Delete your account and data"
        description="You can delete your Backbeat account at any time. Here is exactly what happens when you do."
      />
      <Prose>
        <h2 className="!mt-0">What is deleted</h2>
        <ul>
          <li>Your profile: name, e-mail address, profile image and password hash.</li>
          <li>Your sessions: you are logged out on every device.</li>
          <li>Your preferences and library: favourite genres, liked songs and playlists.</li>
          <li>
            Your access to purchased songs and albums, and your artist subscriptions. Active subscriptions
            stop and are not renewed; no further payments are taken.
          </li>
          <li>Any social-login link between Backbeat and your social account.</li>
          <li>
            Your customer record at the payment provider (at Stripe: your e-mail address, name, billing
            address and saved cards), and your e-mail address, name and account number in the payment messages
            providers sent us.
          </li>
          <li>Copies we kept of e-mails we sent you, such as receipts and password-reset messages.</li>
        </ul>

        <h2>What is kept, and why</h2>
        <p>
          Tax and accounting law requires us to keep records of payments. We keep each payment record (the
          item, the amount and currency, the date, the payment provider and its transaction reference) but
          remove everything that identifies you: the record no longer contains your name or e-mail address and
          can no longer be linked to you. These anonymised records are kept for as long as the law requires,
          typically up to ten years, and are then deleted. Artists&apos; sales totals stay correct because
          they are built from these records.
        </p>
        <p>
          If you are an artist, the songs and albums you published are not deleted automatically, because
          listeners may have bought them. Write to us to have them taken down.
        </p>

        <h2>How to delete</h2>
        {user ? (
          <p>Use the form below. Deletion happens immediately.</p>
        ) : (
          <p>
            <Link to="/login">Log in</Link> and return to this page to delete your account yourself. If you
            can no longer log in, write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> from the
            e-mail address of the account and we will delete it within 30 days.
          </p>
        )}
        <p>
          If you signed up with a social account, you can also remove Backbeat&apos;s access in that
          account&apos;s settings; this does not delete your Backbeat data, so delete the account here as
          well.
        </p>
      </Prose>
      <DeleteAccountForm />
    </>
  );
}
