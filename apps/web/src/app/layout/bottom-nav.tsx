import { NavLink } from 'react-router';
import { cx } from '../../components/ui';
import { MAIN_NAV } from './nav-items';

/** Fixed bottom bar below 768 px: five entries, icon + label, the active one in accent (SPEC section 2). */
export function BottomNav() {
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-surface/95 pb-[env(safe-area-inset-bottom)] backdrop-blur-md md:hidden"
    >
      <ul className="grid h-16 grid-cols-5">
        {MAIN_NAV.map(({ to, shortLabel, icon: Icon }) => (
          <li key={to} className="min-w-0">
            <NavLink
              to={to}
              className={({ isActive }) =>
                cx(
                  'flex h-full flex-col items-center justify-center gap-1 text-[11px] font-medium transition-colors duration-150',
                  isActive ? 'text-accent' : 'text-muted hover:text-text',
                )
              }
            >
              <Icon size={20} strokeWidth={1.75} aria-hidden="true" />
              <span className="max-w-full truncate px-1">{shortLabel}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
