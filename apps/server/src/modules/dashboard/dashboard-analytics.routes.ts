import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ArtistSubscribersQuery,
  ArtistSubscribersResponse,
  DashboardArtistParams,
  DashboardOverviewResponse,
  DashboardRangeQuery,
  DashboardSeriesQuery,
  PlaysSeriesResponse,
  RevenueSeriesResponse,
  SubscribersSeriesResponse,
  TopItemsQuery,
  TopItemsResponse,
} from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import type { DashboardAnalyticsService } from './dashboard-analytics.service';
import { artistOrAdmin as route } from './dashboard.routes';

/**
 * GET /admin/dashboard/{overview, revenue, subscribers, plays, top}: figures of a date range (artist or admin
 * roles; an artist account reads its own artist). GET /admin/dashboard/subscribers/:artistId lists subscribers.
 */
export const dashboardAnalyticsRoutes: FastifyPluginAsyncZod<{
  analytics: DashboardAnalyticsService;
}> = async (app, { analytics }) => {
  const series = (summary: string) => ({ summary, querystring: DashboardSeriesQuery });

  app.get(
    '/admin/dashboard/overview',
    route(
      {
        summary: 'Revenue per currency, plays and subscriber movements in a date range; subscribers now',
        querystring: DashboardRangeQuery,
      },
      { 200: DashboardOverviewResponse },
    ),
    async (request) => analytics.overview(await requireUser(request), request.query),
  );
  app.get(
    '/admin/dashboard/revenue',
    route(
      series('Revenue per day, week or month, split into songs, albums and subscriptions, per currency'),
      { 200: RevenueSeriesResponse },
    ),
    async (request) => analytics.revenueSeries(await requireUser(request), request.query),
  );
  app.get(
    '/admin/dashboard/subscribers',
    route(series('Subscribers at the end of each day, week or month, and subscriptions started and ended'), {
      200: SubscribersSeriesResponse,
    }),
    async (request) => analytics.subscribersSeries(await requireUser(request), request.query),
  );
  app.get(
    '/admin/dashboard/plays',
    route(series('Full plays, and previews of locked songs apart, per day, week or month'), {
      200: PlaysSeriesResponse,
    }),
    async (request) => analytics.playsSeries(await requireUser(request), request.query),
  );
  app.get(
    '/admin/dashboard/top',
    route(
      {
        summary: 'Top songs, albums or (admins) artists of a date range, by revenue or by plays',
        querystring: TopItemsQuery,
      },
      { 200: TopItemsResponse },
    ),
    async (request) => analytics.topItems(await requireUser(request), request.query),
  );
  app.get(
    '/admin/dashboard/subscribers/:artistId',
    route(
      {
        summary: "The artist's subscribers whose paid period runs now, newest first",
        params: DashboardArtistParams,
        querystring: ArtistSubscribersQuery,
      },
      { 200: ArtistSubscribersResponse },
    ),
    async (request) =>
      analytics.subscribers(await requireUser(request), request.params.artistId, request.query),
  );
};
