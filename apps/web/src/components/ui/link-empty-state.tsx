import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses, type ButtonSize, type ButtonVariant } from './button';
import { EmptyState, type EmptyStateProps } from './empty-state';

export interface LinkEmptyStateProps extends Omit<EmptyStateProps, 'icon' | 'action'> {
  /** Not shown with `tone="error"`, which has its own. */
  icon?: LucideIcon;
  /** Where the one way on leads, and what the link says. */
  to: string;
  linkLabel: ReactNode;
  /** An icon shown before the link's label. */
  linkIcon?: LucideIcon;
  linkVariant?: ButtonVariant;
  linkSize?: ButtonSize;
}

/** An empty state whose one action is a link somewhere else (to browse, find or create). */
export function LinkEmptyState({
  icon: Icon,
  to,
  linkLabel,
  linkIcon: LinkIcon,
  linkVariant,
  linkSize,
  ...rest
}: LinkEmptyStateProps) {
  return (
    <EmptyState
      {...rest}
      icon={Icon ? <Icon size={22} strokeWidth={1.75} /> : undefined}
      action={
        <Link to={to} className={buttonClasses({ variant: linkVariant, size: linkSize })}>
          {LinkIcon ? <LinkIcon size={18} strokeWidth={1.75} aria-hidden="true" /> : null}
          {linkLabel}
        </Link>
      }
    />
  );
}
