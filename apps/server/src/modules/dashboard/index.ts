import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '..';
import { loadEntitlements } from '../access/entitlements.repository';
import { SongView } from '../catalog/song-view';
import { dashboardRoutes } from './dashboard.routes';
import { DashboardRepository } from './dashboard.repository';
import { DashboardService } from './dashboard.service';

/** Wires the user and artist/admin dashboards: repository -> service -> routes. */
export async function registerDashboard(
  api: FastifyInstance,
  { database, services }: ModuleContext,
): Promise<void> {
  const db = database.db;
  const dashboard = new DashboardService({
    repo: new DashboardRepository(db),
    songView: new SongView((userId, scope, now) => loadEntitlements(db, userId, scope, now), services.clock),
  });
  await api.register(dashboardRoutes, { dashboard });
}
