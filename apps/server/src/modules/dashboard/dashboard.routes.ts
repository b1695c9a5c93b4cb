import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DashboardArtistParams,
  PurchasedAlbumsResponse,
  PurchasedSongsResponse,
  RevenueSummaryResponse,
  SubscriberStatsResponse,
  TransactionsCsvQuery,
  TransactionsQuery,
  TransactionsResponse,
  UserPurchasesResponse,
  UserSubscriptionsResponse,
} from '@backbeat/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireRole, requireUser, type AuthUser } from '../../platform/auth';
import { errorAnswers, routeGroup } from '../../platform/route-docs';
import { utcDay } from './dashboard-range';
import type { DashboardService } from './dashboard.service';
import { transactionsCsv } from './transactions-csv';

const errors = errorAnswers(400, 401, 403, 404);
const DASHBOARD_ROLES = ['artist', 'admin'] as const;

/** Sign-in and role are checked before the parameters, so a guest always gets 401 and a listener 403. */
const signedIn = routeGroup(['user dashboard'], errors, {
  preValidation: async (request: FastifyRequest) => void (await requireUser(request)),
});
export const artistOrAdmin = routeGroup(['dashboard'], errors, {
  preValidation: async (request: FastifyRequest) => void (await requireRole(request, ...DASHBOARD_ROLES)),
});

/** GET /user/dashboard/* (the signed-in user's own) and GET /admin/dashboard/* (artist or admin roles). */
export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (
  app,
  { dashboard },
) => {
  app.get(
    '/user/dashboard/purchases',
    signedIn(
      { summary: 'Songs and albums the signed-in user bought, and their orders (newest first)' },
      { 200: UserPurchasesResponse },
    ),
    async (request) => dashboard.purchases(await requireUser(request)),
  );

  app.get(
    '/user/dashboard/subscriptions',
    signedIn(
      { summary: "The signed-in user's latest subscription to each artist" },
      { 200: UserSubscriptionsResponse },
    ),
    async (request) => dashboard.subscriptions(await requireUser(request)),
  );

  app.get(
    '/admin/dashboard/transactions',
    artistOrAdmin(
      {
        summary: "Orders, newest first: all for admins, an artist account's own artists otherwise",
        querystring: TransactionsQuery,
      },
      { 200: TransactionsResponse },
    ),
    async (request) => dashboard.transactions(await requireUser(request), request.query),
  );

  app.get(
    '/admin/dashboard/transactions.csv',
    artistOrAdmin(
      {
        summary: 'Every order matching the transaction filters, as CSV (streamed; same columns as the list)',
        querystring: TransactionsCsvQuery,
      },
      {
        200: {
          description: "UTF-8 CSV with a header row; buyers' e-mail only for admins",
          content: { 'text/csv': { schema: z.string() } },
        },
      },
    ),
    async (request, reply) => {
      const viewer = await requireUser(request);
      const filter = await dashboard.transactionFilter(viewer, request.query);
      const filename = `backbeat-transactions-${utcDay(new Date())}.csv`;
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'private, no-store')
          // A stream, not the JSON the typed reply expects: the 200 schema above documents it as text/csv.
          .send(
            transactionsCsv(
              dashboard.repository,
              filter,
              request.query.sort,
              viewer.role === 'admin',
            ) as never,
          )
      );
    },
  );

  /** Figures of one artist (an artist account reads its own), in the order the OpenAPI document lists them. */
  const perArtist = [
    [
      '/admin/dashboard/purchased-songs/:artistId',
      "The artist's bought songs with owners and revenue, highest revenue first",
      PurchasedSongsResponse,
      (viewer, artistId) => dashboard.purchasedSongs(viewer, artistId),
    ],
    [
      '/admin/dashboard/purchased-albums/:artistId',
      "The artist's bought albums with owners and revenue, highest revenue first",
      PurchasedAlbumsResponse,
      (viewer, artistId) => dashboard.purchasedAlbums(viewer, artistId),
    ],
    [
      '/admin/dashboard/subscriber-count/:artistId',
      'Subscribers whose paid period has not ended, and subscription revenue',
      SubscriberStatsResponse,
      (viewer, artistId) => dashboard.subscriberStats(viewer, artistId),
    ],
    [
      '/admin/dashboard/revenue-summary/:artistId',
      "The artist's succeeded payments by kind: songs, albums, subscriptions",
      RevenueSummaryResponse,
      (viewer, artistId) => dashboard.revenueSummary(viewer, artistId),
    ],
  ] as const satisfies ReadonlyArray<
    readonly [string, string, z.ZodType, (viewer: AuthUser, artistId: string) => Promise<unknown>]
  >;
  for (const [url, summary, answer, read] of perArtist) {
    app.get(
      url,
      artistOrAdmin({ summary, params: DashboardArtistParams }, { 200: answer }),
      async (request) => read(await requireUser(request), request.params.artistId),
    );
  }
};
