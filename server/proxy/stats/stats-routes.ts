// The board's own view of its funnel, mounted only when DASHBOARD_TOKEN is
// set (otherwise neither path exists: 404): GET /api/stats and GET /dashboard
// behind the token, and the dashboard's scripts. Mounted before the widget's
// CORS: no other origin may read them, whatever ALLOWED_ORIGINS says.
import type { Router } from 'express';
import { dashboardAssets } from './dashboard-assets.ts';
import { dashboardRoute } from './dashboard-route.ts';
import type { DashboardSource } from './dashboard-route.ts';
import { dashboardAuth } from './stats-auth.ts';
import { statsRoute } from './stats-route.ts';

export const STATS_PATH = '/api/stats';
export const DASHBOARD_PATH = '/dashboard';

export function mountStatsRoutes(app: Router, token: string, source: DashboardSource): void {
  const auth = dashboardAuth(token);
  const assets = dashboardAssets();
  app.get(STATS_PATH, auth, statsRoute(source));
  app.get(DASHBOARD_PATH, auth, dashboardRoute(source, assets));
  app.get(`${DASHBOARD_PATH}/:file`, assets.handler);
}
