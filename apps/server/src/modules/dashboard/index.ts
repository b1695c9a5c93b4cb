import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '..';
import { createSongView } from '../catalog';
import { DashboardAnalyticsRepository } from './dashboard-analytics.repository';
import { dashboardAnalyticsRoutes } from './dashboard-analytics.routes';
import { DashboardAnalyticsService } from './dashboard-analytics.service';
import { dashboardRoutes } from './dashboard.routes';
import { DashboardRepository } from './dashboard.repository';
import { DashboardService } from './dashboard.service';

/** Wires the user and artist/admin dashboards: repositories -> services -> routes. */
export async function registerDashboard(
  api: FastifyInstance,
  { config, database, services }: ModuleContext,
): Promise<void> {
  const db = database.db;
  const repo = new DashboardRepository(db);
  const dashboard = new DashboardService({
    repo,
    songView: createSongView(db, services.clock),
    now: services.clock,
  });
  const analytics = new DashboardAnalyticsService({
    repo: new DashboardAnalyticsRepository(db),
    dashboard,
    ownArtist: (userId) => repo.artistOwnedBy(userId),
    currency: config.currency,
    now: services.clock,
  });
  await api.register(dashboardRoutes, { dashboard });
  await api.register(dashboardAnalyticsRoutes, { analytics });
}
