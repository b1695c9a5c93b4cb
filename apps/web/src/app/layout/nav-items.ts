import {
  Compass,
  Disc3,
  Heart,
  House,
  ListMusic,
  Search,
  ShoppingBag,
  UsersRound,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  to: string;
  label: string;
  /** Shorter label for the bottom bar. */
  shortLabel: string;
  icon: LucideIcon;
}

/** SPEC section 2: the side menu and the bottom bar share these five entries. */
export const MAIN_NAV: readonly NavItem[] = [
  { to: '/home', label: 'Home', shortLabel: 'Home', icon: House },
  { to: '/artists', label: 'Artists', shortLabel: 'Artists', icon: UsersRound },
  { to: '/search', label: 'Search', shortLabel: 'Search', icon: Search },
  { to: '/purchases', label: 'Purchases', shortLabel: 'Purchases', icon: ShoppingBag },
  { to: '/liked-songs', label: 'Liked songs', shortLabel: 'Liked', icon: Heart },
];

/** Side menu only (DESIGN.md): the bottom bar keeps exactly the SPEC's five entries. */
export const SIDE_MENU_EXTRA: readonly NavItem[] = [
  { to: '/discover', label: 'Discover', shortLabel: 'Discover', icon: Compass },
  { to: '/albums', label: 'Albums', shortLabel: 'Albums', icon: Disc3 },
  { to: '/playlists', label: 'Playlists', shortLabel: 'Playlists', icon: ListMusic },
];

export const SUPPORT_EMAIL = 'support@backbeat.example';
