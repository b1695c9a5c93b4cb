import type { ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from './button';

/** The small "← Parent" link back to the screen a sub-page belongs to (placed by `className`). */
export function BackLink({
  to,
  children,
  className,
}: {
  to: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Link to={to} className={buttonClasses({ variant: 'ghost', size: 'sm', className })}>
      <ArrowLeft size={16} strokeWidth={1.75} aria-hidden="true" />
      {children}
    </Link>
  );
}
