import { lazy, Suspense, type ComponentProps } from 'react';
import { Outlet } from 'react-router';
import { SongLockActionContext, type SongLockAction } from '../../components/song-lock-action';
import { loadPlayer } from '../../features/player';
import { AccountMenu } from './account-menu';
import { BottomNav } from './bottom-nav';
import { SideMenu } from './side-menu';
import { SiteHeader } from './site-header';
import { SkipLink } from './skip-link';

/**
 * The player (its engine, both bars, the shortcuts dialog) is loaded beside the first screen, not before it: until
 * a song is chosen it draws nothing, and its spacer closes the page, so nothing above it moves when it arrives.
 */
const Player = lazy(loadPlayer);

/**
 * The way into a locked song (buy / subscribe) comes with the commerce code, which screens that sell load anyway:
 * the studio and the dashboards never show a locked row, so the first load of theirs does not carry it
 * (bench:bundle). A row shows its price once its offer has loaded, as it already waits for the album's or artist's
 * price, so nothing draws until then.
 */
const loadUnlockButton = () =>
  import('../../features/commerce').then((commerce) => ({ default: commerce.SongUnlockButton }));
const LazySongUnlockButton = lazy(loadUnlockButton);

/** The footer starts below the fold (the main area is at least a screen tall), so it arrives unseen. */
const SiteFooter = lazy(() => import('./site-footer').then((footer) => ({ default: footer.SiteFooter })));

const SongUnlockAction: SongLockAction = (props: ComponentProps<SongLockAction>) => (
  <Suspense fallback={null}>
    <LazySongUnlockButton {...props} />
  </Suspense>
);

/**
 * The main layout: header with the logo above the gradient line, the side menu on wide screens, the bottom bar on
 * narrow ones, and the footer after the content. The bottom padding keeps content clear of the fixed bar.
 */
export function MainLayout() {
  // Locked song rows and the end of a preview offer the way in: buy the song or album, or subscribe.
  return (
    <SongLockActionContext value={SongUnlockAction}>
      <div className="flex min-h-dvh flex-col pb-16 md:pb-0">
        <SkipLink />
        <SiteHeader fluid>
          <AccountMenu />
        </SiteHeader>
        <div className="flex flex-1">
          <SideMenu />
          <div className="flex min-w-0 flex-1 flex-col">
            {/* At least a screen tall: the footer starts below the fold, so content that fills in never pushes
                it down in view (layout shift). */}
            <main
              id="main"
              tabIndex={-1}
              className="container-page min-h-dvh flex-1 py-6 outline-none md:py-8"
            >
              <Outlet />
            </main>
            <Suspense fallback={null}>
              <SiteFooter />
            </Suspense>
          </div>
        </div>
        <BottomNav />
        {/* Persistent player: one <audio> for every route in this layout; it pads the page clear of its bars. */}
        <Suspense fallback={null}>
          <Player />
        </Suspense>
      </div>
    </SongLockActionContext>
  );
}

export default MainLayout;
