import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../app/layout/nav-items';
import { PageHeader, Prose } from '../components/ui';

export default function PrivacyPolicyPage() {
  return (
    <>
      <title>Privacy Policy · Backbeat</title>
      <PageHeader eyebrow="Legal" title="Privacy Policy" description="Last updated: 1 June 2025" />
      <Prose>
        <p>
          This policy explains what personal data Backbeat collects when you use our music streaming and
          purchase service, why we need it, how long we keep it and what rights you have. We collect only what
          the service needs to work, we do not sell personal data, and we do not use advertising trackers.
        </p>

        <h2>What we collect</h2>
        <ul>
          <li>
            <strong>Account data:</strong> your name, e-mail address, an optional profile image and a
            password, which we store only as a salted one-way hash (argon2id). If you sign in with a social
            account, we receive your name, e-mail address and an account identifier from that provider, never
            its password.
          </li>
          <li>
            <strong>Preferences and library:</strong> your favourite genres, liked songs, playlists, and the
            songs, albums and artist subscriptions you have bought.
          </li>
          <li>
            <strong>Payment records:</strong> for each payment, the item, amount, currency, date, the payment
            provider used and its transaction reference. Card details are entered with the payment provider
            (Stripe, Razorpay or PayPal) and never reach our servers.
          </li>
          <li>
            <strong>Technical data:</strong> the minimum needed to run and secure the service, such as the
            time of a request and short-lived server logs used to investigate errors and abuse.
          </li>
        </ul>

        <h2>Why we use it</h2>
        <ul>
          <li>To run your account and let you log in securely.</li>
          <li>To stream music you have access to and to show songs that match your genres.</li>
          <li>To process purchases and subscriptions, and to pay artists their share.</li>
          <li>To send e-mails you need, such as password-reset links and receipts.</li>
          <li>To keep accounting records that tax law requires.</li>
        </ul>
        <p>
          The legal bases are the contract with you (providing the service), our legal obligations
          (accounting) and our legitimate interest in keeping the service secure.
        </p>

        <h2>Cookies and local storage</h2>
        <p>
          We use one essential cookie, <strong>token</strong>, which keeps you logged in. It is marked
          HttpOnly, so scripts in the page cannot read it, and it is removed when you log out. Your
          browser&apos;s local storage keeps a copy of your profile and settings such as the player volume, so
          the app opens quickly. We use no advertising or analytics cookies.
        </p>

        <h2>Who we share it with</h2>
        <p>
          Payment providers receive what they need to take a payment. Artists see aggregated sales and
          subscriber numbers for their own releases, not your contact details. Hosting and e-mail providers
          process data on our behalf under data-processing agreements. We disclose data to authorities only
          where the law requires it.
        </p>

        <h2>How long we keep it</h2>
        <p>
          Account data is kept while your account exists. When you delete your account we erase your profile
          and library, stop any subscription from renewing, delete the customer record a payment provider
          keeps for you (at Stripe: your e-mail address, name, billing address and saved cards), remove your
          e-mail address, name, address and account number from the payment messages providers sent us, and
          delete the e-mails we kept a copy of.
        </p>
        <p>
          <strong>What we keep, and why:</strong> tax and accounting law requires us to keep a record of every
          order. For each one we keep the item bought, the amount and currency, the date, the payment provider
          and its transaction references, and nothing that names you: the record is no longer linked to any
          account. We keep these records for as long as that law requires (typically up to ten years), then
          delete them. Music you bought that its artist later removed from the catalogue stays yours until you
          delete your account. Details are on the <Link to="/data-deletion">Data Deletion</Link> page. Server
          logs are deleted after 30 days.
        </p>

        <h2>Security</h2>
        <p>
          All traffic is encrypted with TLS. Audio streams are encrypted and unlocked only for listeners with
          access. Sessions can be revoked at any time by logging out.
        </p>

        <h2>Your rights</h2>
        <p>
          You can access, correct, export or delete your data, object to processing, and complain to your data
          protection authority. You can delete your account yourself on the{' '}
          <Link to="/data-deletion">Data Deletion</Link> page; for anything else write to{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. We reply within 30 days.
        </p>

        <h2>Children</h2>
        <p>Backbeat is not directed at children under 13, and we do not knowingly collect their data.</p>

        <h2>Changes</h2>
        <p>
          If we change this policy in a way that matters, we will tell you by e-mail or in the app before the
          change takes effect.
        </p>
      </Prose>
    </>
  );
}
