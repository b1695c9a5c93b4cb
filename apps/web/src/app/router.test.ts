import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './router';

function paths(list: RouteObject[]): string[] {
  return list.flatMap((route) => [...(route.path ? [route.path] : []), ...paths(route.children ?? [])]);
}

describe('route table', () => {
  it('has exactly the routes of SPEC section 2, plus playlists, discover, albums, the studio and settings', () => {
    expect(paths(routes).sort()).toEqual(
      [
        '/',
        '/help',
        '/data-deletion',
        '/privacy-policy',
        '/auth/callback',
        '/payment-success',
        '/payment-fail',
        '/settings',
        '/settings/email',
        '/checkout/sandbox/:orderId',
        '/register',
        '/login',
        '/forgot-password',
        '/reset-password/:token',
        '/genres',
        '/home',
        '/genre/:genre',
        '/artists',
        '/discover',
        '/albums',
        '/artist/:artistId',
        '/purchases',
        '/liked-songs',
        '/playlists',
        '/playlist/:playlistId',
        '/album/:albumId',
        '/search',
        '/payment-history',
        '/admin',
        '/admin/payments/:artistId',
        '/studio',
        '/studio/artists/new',
        '/studio/artists/:artistId/edit',
        '/studio/albums/new',
        '/studio/albums/:albumId/edit',
        '/studio/songs/new',
        '/studio/songs/:songId/edit',
        '/studio/dashboard',
        '*',
      ].sort(),
    );
  });

  it('loads every screen lazily', () => {
    const screens = (list: RouteObject[]): RouteObject[] =>
      list.flatMap((route) => [
        ...(route.path && route.path !== '*' ? [route] : []),
        ...screens(route.children ?? []),
      ]);
    for (const route of screens(routes)) expect(route.lazy, route.path).toBeTypeOf('function');
  });
});
