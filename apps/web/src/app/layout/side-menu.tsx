import { Mic2, ReceiptText, ShieldUser, type LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';
import { cx } from '../../components/ui';
import { selectIsAdmin, selectUser } from '../../features/auth';
import { useAppSelector } from '../hooks';
import { MAIN_NAV, SIDE_MENU_EXTRA } from './nav-items';

const entryClass = ({ isActive }: { isActive: boolean }) =>
  cx(
    'relative flex items-center gap-3 rounded-control px-3 py-2.5 text-body font-medium transition-colors duration-150',
    isActive ? 'bg-surface-2 text-text' : 'text-muted hover:bg-surface hover:text-text',
  );

interface MenuEntryProps {
  to: string;
  label: string;
  icon: LucideIcon;
}

function Marker({ active }: { active: boolean }) {
  return active ? (
    <span aria-hidden="true" className="absolute inset-y-2 left-0 w-0.5 rounded-pill bg-accent" />
  ) : null;
}

function MenuEntry({ to, label, icon: Icon }: MenuEntryProps) {
  return (
    <li>
      <NavLink to={to} className={entryClass}>
        {({ isActive }) => (
          <>
            <Marker active={isActive} />
            <Icon
              size={20}
              strokeWidth={1.75}
              aria-hidden="true"
              className={isActive ? 'text-accent' : undefined}
            />
            {label}
          </>
        )}
      </NavLink>
    </li>
  );
}

/** Left menu on screens of 768 px and wider (SPEC section 2). */
export function SideMenu() {
  const admin = useAppSelector(selectIsAdmin);
  const artist = useAppSelector(selectUser)?.role === 'artist';
  // The studio is where artists work, so it sits in the menu, not only behind the account button.
  const accountEntries: readonly MenuEntryProps[] = [
    { to: '/payment-history', label: 'Payment history', icon: ReceiptText },
    ...(artist || admin ? [{ to: '/studio', label: 'Your studio', icon: Mic2 }] : []),
    ...(admin ? [{ to: '/admin', label: 'Admin', icon: ShieldUser }] : []),
  ];
  return (
    <aside className="sticky top-[66px] hidden h-[calc(100dvh-66px)] w-60 shrink-0 overflow-y-auto border-r border-line px-3 py-6 md:block">
      <nav aria-label="Main">
        <ul className="flex flex-col gap-1">
          {[...MAIN_NAV, ...SIDE_MENU_EXTRA].map((entry) => (
            <MenuEntry key={entry.to} {...entry} />
          ))}
        </ul>
      </nav>
      <nav aria-label="Account" className="mt-8 border-t border-line pt-6">
        <p className="mb-2 px-3 text-meta font-semibold uppercase tracking-wider text-muted">Account</p>
        <ul className="flex flex-col gap-1">
          {accountEntries.map((entry) => (
            <MenuEntry key={entry.to} {...entry} />
          ))}
        </ul>
      </nav>
    </aside>
  );
}
