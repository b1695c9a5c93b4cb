import { useEffect, useId, useRef, useState } from 'react';
import {
  ChartNoAxesCombined,
  ChevronDown,
  CircleHelp,
  ListMusic,
  LogOut,
  Mic2,
  ReceiptText,
  Settings,
  ShieldUser,
  Tags,
} from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { cx } from '../../components/ui';
import { logout, selectIsAdmin, selectUser } from '../../features/auth';
import { useAppDispatch, useAppSelector } from '../hooks';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts.at(-1)?.[0] ?? ''}` : (parts[0]?.slice(0, 2) ?? '?');
  return letters.toUpperCase();
}

export function Avatar({ name, image, size = 32 }: { name: string; image?: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  return image && !failed ? (
    <img
      src={image}
      alt=""
      width={size}
      height={size}
      onError={() => setFailed(true)}
      className="shrink-0 rounded-pill object-cover"
      style={{ width: size, height: size }}
    />
  ) : (
    <span
      aria-hidden="true"
      className="flex shrink-0 items-center justify-center rounded-pill bg-gradient-to-br from-accent to-accent-2 text-meta font-bold text-bg"
      style={{ width: size, height: size }}
    >
      {initials(name)}
    </span>
  );
}

const itemClass =
  'flex w-full items-center gap-3 rounded-control px-3 py-2 text-left text-body text-text transition-colors duration-150 hover:bg-surface-2';

/**
 * The signed-in person's menu: settings, genres, playlists, payment history, studio and dashboards (artists and
 * admins), help, log out. A disclosure, not a menu role.
 */
export function AccountMenu() {
  const user = useAppSelector(selectUser);
  const admin = useAppSelector(selectIsAdmin);
  const loggingOut = useAppSelector((state) => state.auth.status === 'loading');
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // Close when the route changes.
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!user) return null;
  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-2 rounded-pill p-1 pr-2 transition-colors duration-150 hover:bg-surface-2"
      >
        <Avatar name={user.name} image={user.profileImage} />
        <span className="hidden max-w-40 truncate text-body font-medium md:inline">{user.name}</span>
        <ChevronDown
          size={16}
          strokeWidth={1.75}
          aria-hidden="true"
          className={cx('text-muted transition-transform duration-150', open && 'rotate-180')}
        />
        <span className="sr-only">Account menu</span>
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute right-0 z-40 mt-2 w-64 rounded-card border border-line bg-surface p-2 shadow-2xl shadow-black/50"
      >
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
      </div>
    </div>
  );
}
