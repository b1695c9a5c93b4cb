import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo, cx } from '../../components/ui';

/** The product logo (to /home by default) above the accent -> accent-2 gradient line (SPEC section 2). */
export function SiteHeader({
  logoTo = '/home',
  fluid = false,
  children,
}: {
  logoTo?: string;
  /** Full width, aligned with the side menu (app shell) instead of the centred page container. */
  fluid?: boolean;
  children?: ReactNode;
}) {
  return (
    <header className="sticky top-0 z-30 bg-bg/90 backdrop-blur-md supports-[backdrop-filter]:bg-bg/75">
      <div
        className={cx(
          fluid ? 'px-4 md:px-6' : 'container-page',
          'flex h-16 items-center justify-between gap-4',
        )}
      >
        <Link to={logoTo} aria-label="Backbeat home" className="rounded-control">
          <Logo height={28} />
        </Link>
        <div className="flex items-center gap-2">{children}</div>
      </div>
      <div aria-hidden="true" className="h-0.5 bg-gradient-to-r from-accent to-accent-2" />
    </header>
  );
}
