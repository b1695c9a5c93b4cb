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
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { logout, selectIsAdmin } from '../../features/auth';
import { useAppDispatch, useAppSelector } from '../hooks';

const itemClass =
  'flex w-full items-center gap-3 rounded-control px-3 py-2 text-left text-body text-text transition-colors duration-150 hover:bg-surface-2';

interface Entry {
  to: string;
  label: string;
  Icon: LucideIcon;
  /** Who sees it; everyone when absent. */
  shownTo?: (viewer: { artist: boolean; admin: boolean }) => boolean;
}

/** The menu's links, in order. The bottom bar holds the SPEC's five entries; on phones playlists are reached here. */
const ENTRIES: Entry[] = [
  { to: '/settings', label: 'Settings', Icon: Settings },
  { to: '/genres', label: 'Your genres', Icon: Tags },
  { to: '/playlists', label: 'Playlists', Icon: ListMusic },
  { to: '/payment-history', label: 'Payment history', Icon: ReceiptText },
  { to: '/studio', label: 'Studio', Icon: Mic2, shownTo: ({ artist, admin }) => artist || admin },
  {
    to: '/studio/dashboard',
    label: 'Your dashboard',
    Icon: ChartNoAxesCombined,
    shownTo: ({ artist }) => artist,
  },
  { to: '/admin', label: 'Admin dashboard', Icon: ShieldUser, shownTo: ({ admin }) => admin },
  { to: '/help', label: 'Help', Icon: CircleHelp },
];

/**
 * The account menu's panel, loaded the first time the menu is about to open (pointer over or focus on its button):
 * every signed-in screen draws the button, few open the panel, so its code and icons stay out of the first load.
 */
export function AccountMenuItems({ user }: { user: User }) {
  const admin = useAppSelector(selectIsAdmin);
  const loggingOut = useAppSelector((state) => state.auth.status === 'loading');
  const dispatch = useAppDispatch();
  const viewer = { artist: user.role === 'artist', admin };
  return (
    <>
      <div className="border-b border-line px-3 pb-3 pt-1">
        <p className="truncate text-body font-semibold">{user.name}</p>
        <p className="truncate text-meta text-muted">{user.email}</p>
      </div>
      <ul className="flex flex-col gap-0.5 pt-2">
        {ENTRIES.filter((entry) => entry.shownTo?.(viewer) ?? true).map(({ to, label, Icon }) => (
          <li key={to}>
            <Link to={to} className={itemClass}>
              <Icon size={18} strokeWidth={1.75} aria-hidden="true" className="text-muted" />
              {label}
            </Link>
          </li>
        ))}
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
