import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { ChevronDown } from 'lucide-react';
import { useLocation } from 'react-router';
import { cx, Spinner } from '../../components/ui';
import { selectUser } from '../../features/auth';
import { useAppSelector } from '../hooks';

const loadItems = () => import('./account-menu-items');
const AccountMenuItems = lazy(loadItems);

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

/**
 * The signed-in person's menu: settings, genres, playlists, payment history, studio and dashboards (artists and
 * admins), help, log out. A disclosure, not a menu role.
 */
export function AccountMenu() {
  const user = useAppSelector(selectUser);
  const [open, setOpen] = useState(false);
  // The panel's items are drawn from the first opening on (and stay, hidden, so reopening is instant).
  const [opened, setOpened] = useState(false);
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
        onPointerEnter={() => void loadItems()}
        onFocus={() => void loadItems()}
        onClick={() => {
          setOpened(true);
          setOpen((value) => !value);
        }}
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
        {opened ? (
          <Suspense fallback={<Spinner label="Loading the menu" />}>
            <AccountMenuItems user={user} />
          </Suspense>
        ) : null}
      </div>
    </div>
  );
}
