import { Compass, Home, Search } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from './button';
import { cx } from './class-names';

/**
 * Something asked for that does not exist (a 404, a path no screen matches): said once, plainly, with the ways
 * forward (home and search). Never a "Try again": asking again finds nothing either.
 */
export function NotFoundState({
  title,
  description,
  className,
}: {
  title: string;
  description?: string;
  className?: string;
}) {
  return (
    <div
      role="status"
      className={cx(
        'flex flex-col items-center justify-center gap-3 rounded-card border border-dashed border-line px-6 py-12 text-center',
        className,
      )}
    >
      <div
        aria-hidden="true"
        className="flex size-12 items-center justify-center rounded-pill bg-surface-2 text-muted"
      >
        <Compass size={22} strokeWidth={1.75} />
      </div>
      <h2 className="text-h4 font-semibold text-text">{title}</h2>
      {description ? <p className="max-w-md text-body text-muted">{description}</p> : null}
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        <Link to="/home" className={buttonClasses()}>
          <Home size={16} strokeWidth={1.75} aria-hidden="true" />
          Go home
        </Link>
        <Link to="/search" className={buttonClasses({ variant: 'secondary' })}>
          <Search size={16} strokeWidth={1.75} aria-hidden="true" />
          Search
        </Link>
      </div>
    </div>
  );
}
