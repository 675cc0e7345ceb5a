// GET /api/config: what the widget needs to render the form, from ProxyConfig.
import { Router } from 'express';
import { LOCALES, RESUME_TYPES } from '../../contract/index.ts';
import type { ProxyConfig } from '../config.ts';
import type { ConfigResponse } from '../../public-api/schemas.ts';
import { sendCachedJson, jsonAnswer } from '../http/http-cache.ts';

export function configAnswer(config: ProxyConfig): ConfigResponse {
  return {
    locales: [...LOCALES],
    resume: { types: [...RESUME_TYPES], max_bytes: config.maxResumeBytes },
    fields: { email: 'required', ...config.fields },
    consent_url: config.consentUrl,
    captcha: config.captcha === null ? null : { provider: config.captcha.provider, site_key: config.captcha.siteKey },
    track_utm: config.trackUtm,
    funnel: config.funnel,
    alerts: { feed: config.boardOfferUrl !== null, email: config.alerts === 'webhook' },
    spontaneous_applications: config.spontaneousApplications === 'all' ? 'all' : [...config.spontaneousApplications],
  };
}

export function configRouter(config: ProxyConfig): Router {
  const router = Router();
  // The configuration is fixed for the life of the process: serialised once.
  const answer = jsonAnswer(configAnswer(config));
  router.get('/', (req, res) => {
    sendCachedJson(req, res, answer, 'public, max-age=300');
  });
  return router;
}
