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
import { artistOrAdmin, errors } from './dashboard.routes';

const tags = ['dashboard'];

/**
 * GET /admin/dashboard/{overview, revenue, subscribers, plays, top}: figures of a date range (artist or admin
 * roles; an artist account reads its own artist). GET /admin/dashboard/subscribers/:artistId lists subscribers.
 */
export const dashboardAnalyticsRoutes: FastifyPluginAsyncZod<{
  analytics: DashboardAnalyticsService;
}> = async (app, { analytics }) => {
  app.get(
    '/admin/dashboard/overview',
    {
      ...artistOrAdmin,
      schema: {
        tags,
        summary: 'Revenue per currency, plays and subscriber movements in a date range; subscribers now',
        querystring: DashboardRangeQuery,
        response: { 200: DashboardOverviewResponse, ...errors },
      },
    },
    async (request) => analytics.overview(await requireUser(request), request.query),
  );

  app.get(
    '/admin/dashboard/revenue',
    {
      ...artistOrAdmin,
      schema: {
        tags,
        summary: 'Revenue per day, week or month, split into songs, albums and subscriptions, per currency',
        querystring: DashboardSeriesQuery,
        response: { 200: RevenueSeriesResponse, ...errors },
      },
    },
    async (request) => analytics.revenueSeries(await requireUser(request), request.query),
  );

  app.get(
    '/admin/dashboard/subscribers',
    {
      ...artistOrAdmin,
      schema: {
        tags,
        summary: 'Subscribers at the end of each day, week or month, and subscriptions started and ended',
        querystring: DashboardSeriesQuery,
        response: { 200: SubscribersSeriesResponse, ...errors },
      },
    },
    async (request) => analytics.subscribersSeries(await requireUser(request), request.query),
  );

  app.get(
    '/admin/dashboard/plays',
    {
      ...artistOrAdmin,
      schema: {
        tags,
        summary: 'Full plays, and previews of locked songs apart, per day, week or month',
        querystring: DashboardSeriesQuery,
        response: { 200: PlaysSeriesResponse, ...errors },
      },
    },
    async (request) => analytics.playsSeries(await requireUser(request), request.query),
  );

  app.get(
    '/admin/dashboard/top',
    {
      ...artistOrAdmin,
      schema: {
        tags,
        summary: 'Top songs, albums or (admins) artists of a date range, by revenue or by plays',
        querystring: TopItemsQuery,
        response: { 200: TopItemsResponse, ...errors },
      },
    },
    async (request) => analytics.topItems(await requireUser(request), request.query),
  );

  app.get(
    '/admin/dashboard/subscribers/:artistId',
    {
      ...artistOrAdmin,
      schema: {
        tags,
        summary: "The artist's subscribers whose paid period runs now, newest first",
        params: DashboardArtistParams,
        querystring: ArtistSubscribersQuery,
        response: { 200: ArtistSubscribersResponse, ...errors },
      },
    },
    async (request) =>
      analytics.subscribers(await requireUser(request), request.params.artistId, request.query),
  );
};
