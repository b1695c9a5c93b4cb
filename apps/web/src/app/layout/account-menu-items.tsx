import type { User } from '@backbeat/contract';
import {
  ChartNoAxesCombined,
  CircleHelp,
  ListMusic,
  LogOut,
  Mic2,
  ReceiptText,
  Settings,
  ShieldUser,
  Tags,
} from 'lucide-react';
import { Link } from 'react-router';
import { logout, selectIsAdmin } from '../../features/auth';
import { useAppDispatch, useAppSelector } from '../hooks';

const itemClass =
  'flex w-full items-center gap-3 rounded-control px-3 py-2 text-left text-body text-text transition-colors duration-150 hover:bg-surface-2';

/**
 * The account menu's panel, loaded the first time the menu is about to open (pointer over or focus on its button):
 * every signed-in screen draws the button, few open the panel, so its code and icons stay out of the first load.
 */
export function AccountMenuItems({ user }: { user: User }) {
  const admin = useAppSelector(selectIsAdmin);
  const loggingOut = useAppSelector((state) => state.auth.status === 'loading');
  const dispatch = useAppDispatch();
  return (
    <>
      <div className="border-b border-line px-3 pb-3 pt-1">
        <p className="truncate text-body font-semibold">{user.name}</p>
        <p className="truncate text-meta text-muted">{user.email}</p>
      </div>
      <ul className="flex flex-col gap-0.5 pt-2">
        <li>
          <Link to="/settings" className={itemClass}>
            <Settings size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
            Settings
          </Link>
        </li>
        <li>
          <Link to="/genres" className={itemClass}>
            <Tags size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
            Your genres
          </Link>
        </li>
        <li>
          {/* The bottom bar holds the SPEC's five entries; on phones playlists are reached from here. */}
          <Link to="/playlists" className={itemClass}>
            <ListMusic size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
            Playlists
          </Link>
        </li>
        <li>
          <Link to="/payment-history" className={itemClass}>
            <ReceiptText size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
            Payment history
          </Link>
        </li>
        {user.role === 'artist' || admin ? (
          <li>
            <Link to="/studio" className={itemClass}>
              <Mic2 size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
              Studio
            </Link>
          </li>
        ) : null}
        {user.role === 'artist' ? (
          <li>
            <Link to="/studio/dashboard" className={itemClass}>
              <ChartNoAxesCombined size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
              Your dashboard
            </Link>
          </li>
        ) : null}
        {admin ? (
          <li>
            <Link to="/admin" className={itemClass}>
              <ShieldUser size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
              Admin dashboard
            </Link>
          </li>
        ) : null}
        <li>
          <Link to="/help" className={itemClass}>
            <CircleHelp size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
            Help
          </Link>
        </li>
        <li className="mt-1 border-t border-line pt-1">
          <button
            type="button"
            className={itemClass}
            disabled={loggingOut}
            onClick={() => {
              void dispatch(logout());
            }}
          >
            <LogOut size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
            Log out
          </button>
        </li>
      </ul>
    </>
  );
}

export default AccountMenuItems;
