import { useLocation } from 'react-router';
import { notFoundPathOf } from '../app/guards';
import { useAppSelector } from '../app/hooks';
import { NotFoundState, PageHeader } from '../components/ui';
import { selectIsSignedIn } from '../features/auth';
import LandingPage from './landing-page';

/**
 * `/`: the landing page; for a signed-in listener sent here by the catch-all (SPEC section 2: any other path
 * redirects to `/`), "Page not found" inside the app instead, naming the path, with home and search.
 */
export default function RootPage() {
  const signedIn = useAppSelector(selectIsSignedIn);
  const location = useLocation();
  const missing = signedIn ? notFoundPathOf(location.state) : null;
  if (missing === null) return <LandingPage />;
  return (
    <>
      <title>Page not found · Backbeat</title>
      <PageHeader eyebrow="404" title="Page not found" />
      <NotFoundState
        title={`There is no page at ${missing}`}
        description="The address may be mistyped, or the page has moved. Your music keeps playing."
      />
    </>
  );
}
