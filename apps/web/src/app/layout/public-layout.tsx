import { Link, Outlet } from 'react-router';
import { buttonClasses } from '../../components/ui';
import { selectIsSignedIn } from '../../features/auth';
import { useAppSelector } from '../hooks';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { SkipLink } from './skip-link';

/** Header actions for pages anyone may open: sign-in links for guests, a way back into the app otherwise. */
export function PublicHeaderActions() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return signedIn ? (
    <Link to="/home" className={buttonClasses({ size: 'sm' })}>
      Open Backbeat
    </Link>
  ) : (
    <>
      <Link to="/login" className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
        Log in
      </Link>
      <Link to="/register" className={buttonClasses({ size: 'sm' })}>
        Sign up free
      </Link>
    </>
  );
}

/** Shell for the public pages (help, privacy, data deletion, payment results). */
export function PublicLayout() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader logoTo={signedIn ? '/home' : '/'}>
        <PublicHeaderActions />
      </SiteHeader>
      <main id="main" tabIndex={-1} className="container-page flex-1 py-8 outline-none md:py-12">
        <Outlet />
      </main>
      <SiteFooter homeTo={signedIn ? '/home' : '/'} />
    </div>
  );
}

export default PublicLayout;
