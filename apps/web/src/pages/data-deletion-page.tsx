import { Link } from 'react-router';
import { useAppSelector } from '../app/hooks';
import { SUPPORT_EMAIL } from '../app/layout/nav-items';
import { PageHeader, Prose } from '../components/ui';
import { DeleteAccountForm, selectUser } from '../features/auth';

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
          <p>
            Use the form below, or the same one in <Link to="/settings">Settings</Link>. Deletion happens
            immediately.
          </p>
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
      <DeleteAccountForm className="mt-12 max-w-3xl" />
    </>
  );
}
