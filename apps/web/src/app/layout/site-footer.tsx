import { Lock, ShieldCheck, ShieldHalf } from 'lucide-react';
import { Link } from 'react-router';
import { Logo } from '../../components/ui';
import { SUPPORT_EMAIL } from './nav-items';
import { SOCIAL_LINKS } from './social-icons';

const exploreLinks = [
  { to: '/artists', label: 'Artists' },
  { to: '/search', label: 'Search' },
  { to: '/purchases', label: 'Purchases' },
  { to: '/liked-songs', label: 'Liked' },
];

const trustLinks = [
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/data-deletion', label: 'Data Deletion' },
  { to: '/help', label: 'Support' },
];

const badges = [
  { label: 'SSL encryption', icon: Lock },
  { label: 'DRM protection', icon: ShieldCheck },
  { label: 'Privacy shield', icon: ShieldHalf },
];

const linkClass = 'text-body text-muted transition-colors duration-150 hover:text-text';

/** A titled column of footer links. */
function FooterLinks({
  label,
  title,
  links,
}: {
  label: string;
  title: string;
  links: ReadonlyArray<{ to: string; label: string }>;
}) {
  return (
    <nav aria-label={label}>
      <h2 className="mb-3 text-meta font-semibold uppercase tracking-wider text-muted">{title}</h2>
      <ul className="flex flex-col gap-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={linkClass}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** SPEC section 2 footer: links, contact e-mail, four social links, copyright and the three trust labels. */
export function SiteFooter({ homeTo = '/home' }: { homeTo?: string }) {
  return (
    <footer className="border-t border-line bg-bg">
      <div className="container-page grid gap-10 py-10 md:grid-cols-[1.4fr_1fr_1fr] md:py-12">
        <div className="flex flex-col gap-4">
          <Link to={homeTo} className="w-fit" aria-label="Backbeat home">
            <Logo height={24} />
          </Link>
          <p className="max-w-xs text-body text-muted">
            Play free songs in full, own what you love, and back the artists who make it.
          </p>
          <p className="text-body text-muted">
            Questions?{' '}
            <a
              href={`mailto:${SUPPORT_EMAIL}`}
              className="font-medium text-text underline-offset-4 hover:underline"
            >
              {SUPPORT_EMAIL}
            </a>
          </p>
          <ul className="flex gap-2" aria-label="Backbeat on social media">
            {SOCIAL_LINKS.map(({ name, href, icon: Icon }) => (
              <li key={name}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`Backbeat on ${name} (opens in a new tab)`}
                  className="flex size-10 items-center justify-center rounded-pill border border-line text-muted transition-colors duration-150 hover:border-muted hover:text-text"
                >
                  <Icon />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <FooterLinks label="Explore" title="Explore" links={exploreLinks} />
        <FooterLinks label="Privacy and support" title="Trust & support" links={trustLinks} />
      </div>
      <div className="border-t border-line">
        <div className="container-page flex flex-col gap-4 py-6 md:flex-row md:items-center md:justify-between">
          <p className="text-meta text-muted">© {new Date().getFullYear()} Backbeat. All rights reserved.</p>
          <ul className="flex flex-wrap gap-x-5 gap-y-2" aria-label="Security">
            {badges.map(({ label, icon: Icon }) => (
              <li key={label} className="flex items-center gap-1.5 text-meta text-muted">
                <Icon size={14} strokeWidth={1.75} className="text-ok" aria-hidden="true" />
                {label}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
