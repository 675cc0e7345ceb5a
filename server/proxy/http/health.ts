// GET /healthz (the process answers) and GET /readyz (it can do its job).
import { Router } from 'express';

export interface Check {
  status: string;
  [key: string]: unknown;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, Check>;
}

export function healthRouter(readiness: () => Readiness): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get('/readyz', (_req, res) => {
    const { ready, checks } = readiness();
    res.setHeader('Cache-Control', 'no-store');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  return router;
}
