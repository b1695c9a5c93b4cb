import { Mail } from 'lucide-react';
import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../app/layout/nav-items';
import { PageHeader, Prose } from '../components/ui';

const topics = [
  { id: 'getting-started', title: 'Getting started' },
  { id: 'listening', title: 'Listening' },
  { id: 'buying', title: 'Buying songs and albums' },
  { id: 'subscriptions', title: 'Artist subscriptions' },
  { id: 'account', title: 'Your account' },
  { id: 'contact', title: 'Contact support' },
];

export default function HelpPage() {
  return (
    <>
      <title>Help · Backbeat</title>
      <PageHeader
        eyebrow="Support"
        title="How can we help?"
        description="Answers to the questions listeners ask most. If yours is not here, write to us and a person will reply."
      />
      <div className="grid gap-10 lg:grid-cols-[220px_minmax(0,1fr)]">
        <nav aria-label="Help topics" className="lg:sticky lg:top-24 lg:self-start">
          <ul className="flex flex-wrap gap-2 lg:flex-col lg:gap-1">
            {topics.map((topic) => (
              <li key={topic.id}>
                <a
                  href={`#${topic.id}`}
                  className="block rounded-control border border-line px-3 py-1.5 text-body text-muted transition-colors hover:text-text lg:border-0 lg:px-3 lg:py-2 lg:hover:bg-surface"
                >
                  {topic.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <Prose className="[&>h2:first-child]:mt-0">
          <h2 id="getting-started">Getting started</h2>
          <p>
            Create an account with your e-mail address and a password, or use a social account if one is
            offered on the <Link to="/login">log-in page</Link>. Right after signing up you choose at least
            one favourite genre; your home screen shows songs from those genres. You can change them any time
            from the account menu under
            <strong> Your genres</strong>.
          </p>
          <h3>I forgot my password</h3>
          <p>
            Use <Link to="/forgot-password">Forgot password</Link> on the log-in page. We send a link to your
            e-mail address; it works once and expires after a short time. If nothing arrives within a few
            minutes, check your spam folder, then request a new link.
          </p>

          <h2 id="listening">Listening</h2>
          <p>
            Browse <strong>Home</strong> for songs in your genres, open <strong>Artists</strong> to explore
            the catalogue, or use <strong>Search</strong> to find artists, albums and songs by name. Tap the
            heart on any song to add it to <strong>Liked songs</strong>.
          </p>
          <p>
            Songs marked <strong>Free</strong> play in full for everyone who is signed in; buying one gives
            you its download and supports the artist. Some songs show a lock. That means the artist has chosen
            how it can be played: a price means the song is for sale, <strong>Subscribe</strong> means it is
            part of the artist&apos;s subscriber catalogue, and
            <strong> Buy album</strong> means it belongs to a premium album that is sold as a whole. A locked
            song offers a 30-second <strong>Preview</strong> first.
          </p>
          <h3>Playback stops or does not start</h3>
          <ul>
            <li>Check your connection; the player buffers ahead, but it needs some connection.</li>
            <li>Some browsers block autoplay. Press play once and playback continues normally.</li>
            <li>
              If a song says you need access, buy it, buy its album or subscribe to the artist as shown.
            </li>
          </ul>

          <h2 id="buying">Buying songs and albums</h2>
          <p>
            A purchase is a one-time payment. What you buy is yours to stream for as long as you have your
            account, and appears under <strong>Purchases</strong>. Payments are processed by Stripe, Razorpay
            or PayPal; Backbeat never sees or stores your full card number. Every payment is listed in your
            payment history.
          </p>
          <h3>A payment failed or was charged twice</h3>
          <p>
            If a payment fails, nothing is charged and you can try again. If you believe you were charged but
            did not receive access, or were charged twice, write to us with the date and amount; we check it
            against the payment provider&apos;s records and put it right.
          </p>

          <h2 id="subscriptions">Artist subscriptions</h2>
          <p>
            Subscribing to an artist unlocks the songs they publish for subscribers. You can subscribe for 1,
            3, 6 or 12 months. You keep access until the end of the period you paid for, and you can cancel at
            any time from the artist&apos;s page so that it does not renew.
          </p>

          <h2 id="account">Your account</h2>
          <p>
            Your profile, liked songs, genres and purchases are tied to your account and available on every
            device where you log in. Read our <Link to="/privacy-policy">Privacy Policy</Link> to see what we
            keep and why, and see <Link to="/data-deletion">Data Deletion</Link> to delete your account and
            data.
          </p>

          <h2 id="contact">Contact support</h2>
          <p>
            Write to{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`}>
              <Mail size={16} strokeWidth={1.75} aria-hidden="true" className="mr-1 inline align-[-2px]" />
              {SUPPORT_EMAIL}
            </a>
            . Tell us the e-mail address of your account and, for payment questions, the date and amount. We
            answer within two working days.
          </p>
        </Prose>
      </div>
    </>
  );
}
