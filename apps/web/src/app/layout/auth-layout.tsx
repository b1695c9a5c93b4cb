import { Link, Outlet } from 'react-router';
import { Logo } from '../../components/ui';
import { SkipLink } from './skip-link';

/** Split screen for the sign-in pages: a brand panel on wide screens, the form card on the right. */
export function AuthLayout() {
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <SkipLink />
      <aside className="relative hidden overflow-hidden border-r border-line bg-surface lg:flex lg:flex-col lg:justify-between lg:p-12">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -left-32 -top-32 size-[520px] rounded-pill bg-accent/25 blur-[120px]"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -bottom-40 right-0 size-[420px] rounded-pill bg-accent-2/15 blur-[120px]"
        />
        <Link to="/" aria-label="Backbeat home" className="relative w-fit">
          <Logo height={32} />
        </Link>
        <div className="relative max-w-md">
          <p className="text-h1 font-bold tracking-tight text-balance">
            Every song. Every artist. Yours to keep.
          </p>
          <p className="mt-4 text-h4 text-muted">
            Stream the catalogue, buy the tracks you can&apos;t live without, and subscribe to the artists who
            make them.
          </p>
        </div>
        <div aria-hidden="true" className="relative flex h-16 items-end gap-1.5">
          {[30, 55, 80, 45, 95, 60, 35, 70, 50, 85, 40, 65, 25, 75, 55, 90, 45, 60, 30, 50].map(
            (height, index) => (
              <span
                key={index}
                className="w-1.5 rounded-pill bg-gradient-to-t from-accent to-accent-2 opacity-80"
                style={{ height: `${height}%` }}
              />
            ),
          )}
        </div>
      </aside>
      <main id="main" tabIndex={-1} className="flex flex-col px-4 py-8 outline-none sm:px-8 lg:px-16">
        <Link to="/" aria-label="Backbeat home" className="mb-10 w-fit lg:hidden">
          <Logo height={28} />
        </Link>
        <div className="mx-auto flex w-full max-w-sm flex-1 flex-col justify-center">
          <Outlet />
        </div>
      </main>
    </div>
  );
}

export default AuthLayout;
