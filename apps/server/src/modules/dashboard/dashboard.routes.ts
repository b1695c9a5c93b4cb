import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DashboardArtistParams,
  ErrorResponse,
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
import { requireRole, requireUser } from '../../platform/auth';
import { utcDay } from './dashboard-range';
import type { DashboardService } from './dashboard.service';
import { transactionsCsv } from './transactions-csv';

export const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const DASHBOARD_ROLES = ['artist', 'admin'] as const;

/** Sign-in and role are checked before the parameters, so a guest always gets 401 and a listener 403. */
const signedIn = { preValidation: async (request: FastifyRequest) => void (await requireUser(request)) };
export const artistOrAdmin = {
  preValidation: async (request: FastifyRequest) => void (await requireRole(request, ...DASHBOARD_ROLES)),
};

/** GET /user/dashboard/* (the signed-in user's own) and GET /admin/dashboard/* (artist or admin roles). */
export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (
  app,
  { dashboard },
) => {
  app.get(
    '/user/dashboard/purchases',
    {
      ...signedIn,
      schema: {
        tags: ['user dashboard'],
        summary: 'Songs and albums the signed-in user bought, and their orders (newest first)',
        response: { 200: UserPurchasesResponse, ...errors },
      },
    },
    async (request) => dashboard.purchases(await requireUser(request)),
  );

  app.get(
    '/user/dashboard/subscriptions',
    {
      ...signedIn,
      schema: {
        tags: ['user dashboard'],
        summary: "The signed-in user's latest subscription to each artist",
        response: { 200: UserSubscriptionsResponse, ...errors },
      },
    },
    async (request) => dashboard.subscriptions(await requireUser(request)),
  );

  app.get(
    '/admin/dashboard/transactions',
    {
      ...artistOrAdmin,
      schema: {
        tags: ['dashboard'],
        summary: "Orders, newest first: all for admins, an artist account's own artists otherwise",
        querystring: TransactionsQuery,
        response: { 200: TransactionsResponse, ...errors },
      },
    },
    async (request) => dashboard.transactions(await requireUser(request), request.query),
  );

  app.get(
    '/admin/dashboard/transactions.csv',
    {
      ...artistOrAdmin,
      schema: {
        tags: ['dashboard'],
        summary: 'Every order matching the transaction filters, as CSV (streamed; same columns as the list)',
        querystring: TransactionsCsvQuery,
        response: {
          200: {
            description: "UTF-8 CSV with a header row; buyers' e-mail only for admins",
            content: { 'text/csv': { schema: z.string() } },
          },
          ...errors,
        },
      },
    },
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

  app.get(
    '/admin/dashboard/purchased-songs/:artistId',
    {
      ...artistOrAdmin,
      schema: {
        tags: ['dashboard'],
        summary: "The artist's bought songs with owners and revenue, highest revenue first",
        params: DashboardArtistParams,
        response: { 200: PurchasedSongsResponse, ...errors },
      },
    },
    async (request) => dashboard.purchasedSongs(await requireUser(request), request.params.artistId),
  );

  app.get(
    '/admin/dashboard/purchased-albums/:artistId',
    {
      ...artistOrAdmin,
      schema: {
        tags: ['dashboard'],
        summary: "The artist's bought albums with owners and revenue, highest revenue first",
        params: DashboardArtistParams,
        response: { 200: PurchasedAlbumsResponse, ...errors },
      },
    },
    async (request) => dashboard.purchasedAlbums(await requireUser(request), request.params.artistId),
  );

  app.get(
    '/admin/dashboard/subscriber-count/:artistId',
    {
      ...artistOrAdmin,
      schema: {
        tags: ['dashboard'],
        summary: 'Subscribers whose paid period has not ended, and subscription revenue',
        params: DashboardArtistParams,
        response: { 200: SubscriberStatsResponse, ...errors },
      },
    },
    async (request) => dashboard.subscriberStats(await requireUser(request), request.params.artistId),
  );

  app.get(
    '/admin/dashboard/revenue-summary/:artistId',
    {
      ...artistOrAdmin,
      schema: {
        tags: ['dashboard'],
        summary: "The artist's succeeded payments by kind: songs, albums, subscriptions",
        params: DashboardArtistParams,
        response: { 200: RevenueSummaryResponse, ...errors },
      },
    },
    async (request) => dashboard.revenueSummary(await requireUser(request), request.params.artistId),
  );
};
