import { ReceiptText, ShieldUser } from 'lucide-react';
import { NavLink } from 'react-router';
import { cx } from '../../components/ui';
import { selectIsAdmin } from '../../features/auth';
import { useAppSelector } from '../hooks';
import { MAIN_NAV, SIDE_MENU_EXTRA } from './nav-items';

const entryClass = ({ isActive }: { isActive: boolean }) =>
  cx(
    'relative flex items-center gap-3 rounded-control px-3 py-2.5 text-body font-medium transition-colors duration-150',
    isActive ? 'bg-surface-2 text-text' : 'text-muted hover:bg-surface hover:text-text',
  );

function Marker({ active }: { active: boolean }) {
  return active ? (
    <span aria-hidden="true" className="absolute inset-y-2 left-0 w-0.5 rounded-pill bg-accent" />
  ) : null;
}

/** Left menu on screens of 768 px and wider (SPEC section 2). */
export function SideMenu() {
  const admin = useAppSelector(selectIsAdmin);
  return (
    <aside className="sticky top-[66px] hidden h-[calc(100dvh-66px)] w-60 shrink-0 overflow-y-auto border-r border-line px-3 py-6 md:block">
      <nav aria-label="Main">
        <ul className="flex flex-col gap-1">
          {[...MAIN_NAV, ...SIDE_MENU_EXTRA].map(({ to, label, icon: Icon }) => (
            <li key={to}>
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
          ))}
        </ul>
      </nav>
      <nav aria-label="Account" className="mt-8 border-t border-line pt-6">
        <p className="mb-2 px-3 text-meta font-semibold uppercase tracking-wider text-muted">Account</p>
        <ul className="flex flex-col gap-1">
          <li>
            <NavLink to="/payment-history" className={entryClass}>
              {({ isActive }) => (
                <>
                  <Marker active={isActive} />
                  <ReceiptText
                    size={20}
                    strokeWidth={1.75}
                    aria-hidden="true"
                    className={isActive ? 'text-accent' : undefined}
                  />
                  Payment history
                </>
              )}
            </NavLink>
          </li>
          {admin ? (
            <li>
              <NavLink to="/admin" className={entryClass}>
                {({ isActive }) => (
                  <>
                    <Marker active={isActive} />
                    <ShieldUser
                      size={20}
                      strokeWidth={1.75}
                      aria-hidden="true"
                      className={isActive ? 'text-accent' : undefined}
                    />
                    Admin
                  </>
                )}
              </NavLink>
            </li>
          ) : null}
        </ul>
      </nav>
    </aside>
  );
}
