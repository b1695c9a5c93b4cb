import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { FullScreenLoader } from '../components/ui';
import {
  CatchAll,
  GuestOnly,
  RequireAdmin,
  RequireArtist,
  RequireAuth,
  RequireGenres,
  RequireStaff,
} from './guards';
import { AppShell } from './layout/app-shell';
import { RootRoute } from './root-route';
import { RouteError } from './route-error';

/** Each screen is its own chunk, loaded when its route matches (rendered by app/route-renderer.tsx). */
const lazyModule = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

/**
 * The route table of SPEC section 2. Layouts are pathless routes, so the paths are exactly the SPEC's:
 * public; guest only; /genres (sign-in); the app shell (the main layout for signed-in listeners: the catalogue
 * screens behind sign-in and genres, and the public payment results and `/`'s "Page not found", so the player
 * plays on); /payment-history (sign-in + genres, no layout); /admin (admin role); everything else redirects.
 */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullScreenLoader />,
    children: [
      { path: '/auth/callback', lazy: lazyModule(() => import('../pages/auth-callback-page')) },
      {
        lazy: lazyModule(() => import('./layout/public-layout')),
        children: [
          { path: '/help', lazy: lazyModule(() => import('../pages/help-page')) },
          { path: '/data-deletion', lazy: lazyModule(() => import('../pages/data-deletion-page')) },
          { path: '/privacy-policy', lazy: lazyModule(() => import('../pages/privacy-policy-page')) },
        ],
      },
      {
        element: <GuestOnly />,
        children: [
          {
            lazy: lazyModule(() => import('./layout/auth-layout')),
            children: [
              { path: '/register', lazy: lazyModule(() => import('../pages/register-page')) },
              { path: '/login', lazy: lazyModule(() => import('../pages/login-page')) },
              { path: '/forgot-password', lazy: lazyModule(() => import('../pages/forgot-password-page')) },
              {
                path: '/reset-password/:token',
                lazy: lazyModule(() => import('../pages/reset-password-page')),
              },
            ],
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          { path: '/genres', lazy: lazyModule(() => import('../pages/genres-page')) },
          {
            // The sandbox gateway's demo checkout: signed in, in the quiet public shell (no player).
            lazy: lazyModule(() => import('./layout/public-layout')),
            children: [
              {
                path: '/checkout/sandbox/:orderId',
                lazy: lazyModule(() => import('../pages/sandbox-checkout-page')),
              },
            ],
          },
          {
            element: <RequireGenres />,
            children: [
              { path: '/payment-history', lazy: lazyModule(() => import('../pages/payment-history-page')) },
            ],
          },
        ],
      },
      {
        // Screens inside the app: the main layout when signed in, the public shell for guests (see AppShell).
        element: <AppShell />,
        children: [
          { path: '/', lazy: lazyModule(() => import('../pages/root-page')) },
          { path: '/payment-success', lazy: lazyModule(() => import('../pages/payment-success-page')) },
          { path: '/payment-fail', lazy: lazyModule(() => import('../pages/payment-fail-page')) },
          // The link mailed to a new e-mail address: signed in or not.
          { path: '/settings/email', lazy: lazyModule(() => import('../pages/confirm-email-page')) },
          {
            element: <RequireAuth />,
            children: [
              { path: '/settings', lazy: lazyModule(() => import('../pages/settings-page')) },
              { path: '/album/:albumId', lazy: lazyModule(() => import('../pages/album-page')) },
              { path: '/search', lazy: lazyModule(() => import('../pages/search-page')) },
              {
                element: <RequireGenres />,
                children: [
                  { path: '/home', lazy: lazyModule(() => import('../pages/home-page')) },
                  { path: '/genre/:genre', lazy: lazyModule(() => import('../pages/genre-page')) },
                  { path: '/artists', lazy: lazyModule(() => import('../pages/artists-page')) },
                  { path: '/discover', lazy: lazyModule(() => import('../pages/discover-page')) },
                  { path: '/albums', lazy: lazyModule(() => import('../pages/albums-page')) },
                  { path: '/artist/:artistId', lazy: lazyModule(() => import('../pages/artist-page')) },
                  { path: '/purchases', lazy: lazyModule(() => import('../pages/purchases-page')) },
                  { path: '/liked-songs', lazy: lazyModule(() => import('../pages/liked-songs-page')) },
                  { path: '/playlists', lazy: lazyModule(() => import('../pages/playlists-page')) },
                  { path: '/playlist/:playlistId', lazy: lazyModule(() => import('../pages/playlist-page')) },
                ],
              },
              {
                // The studio (artist and admin content management); not gated on genres.
                element: <RequireStaff />,
                children: [
                  { path: '/studio', lazy: lazyModule(() => import('../pages/studio-page')) },
                  {
                    path: '/studio/artists/new',
                    lazy: lazyModule(() => import('../pages/studio-artist-page')),
                  },
                  {
                    path: '/studio/artists/:artistId/edit',
                    lazy: lazyModule(() => import('../pages/studio-artist-page')),
                  },
                  {
                    path: '/studio/albums/new',
                    lazy: lazyModule(() => import('../pages/studio-album-page')),
                  },
                  {
                    path: '/studio/albums/:albumId/edit',
                    lazy: lazyModule(() => import('../pages/studio-album-page')),
                  },
                  { path: '/studio/songs/new', lazy: lazyModule(() => import('../pages/studio-song-page')) },
                  {
                    path: '/studio/songs/:songId/edit',
                    lazy: lazyModule(() => import('../pages/studio-song-page')),
                  },
                ],
              },
              {
                // An artist account's own dashboard (the SPEC's /admin pages stay admin-only).
                element: <RequireArtist />,
                children: [
                  {
                    path: '/studio/dashboard',
                    lazy: lazyModule(() => import('../pages/studio-dashboard-page')),
                  },
                ],
              },
              {
                element: <RequireAdmin />,
                children: [
                  { path: '/admin', lazy: lazyModule(() => import('../pages/admin-page')) },
                  {
                    path: '/admin/payments/:artistId',
                    lazy: lazyModule(() => import('../pages/admin-payments-page')),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <CatchAll /> },
    ],
  },
];
