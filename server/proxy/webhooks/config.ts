// The WEBHOOK_* variables: where the proxy posts its signed events about
// applications, and with which secret. Read with the rest of the configuration
// at start (config.ts), and alone by the commands that record or send events.
import { z } from 'zod';
import { LOOPBACK_HOSTS, optionalText, schemeHint } from '../config-values.ts';

/** WEBHOOK_URL: https, or http to this machine only (a receiver under test): events carry applications' details. */
const webhookUrl = optionalText.superRefine((v, ctx) => {
  if (v === undefined) return;
  const url = URL.parse(v);
  const example = 'like https://board.example/hooks/jobboard';
  if (url === null || !/^https?:$/.test(url.protocol))
    ctx.addIssue({
      code: 'custom',
      message: `must be the https URL the events are posted to${schemeHint(v, example)}, ${example}`,
    });
  else if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be https (http only to localhost or 127.0.0.1): write https://${url.host}${url.pathname}`,
    });
  }
});

const WEBHOOK_SECRET_HINT =
  'whsec_ followed by 24 to 64 random bytes in base64, like whsec_ and the output of `openssl rand -base64 32`';

/** WEBHOOK_SECRET: the Standard Webhooks form, whsec_<base64 of the key>. */
const webhookSecret = optionalText.superRefine((v, ctx) => {
  if (v === undefined) return;
  const key = v.startsWith('whsec_') ? v.slice('whsec_'.length) : undefined;
  if (key === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be a Standard Webhooks secret: ${WEBHOOK_SECRET_HINT}` });
    return;
  }
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(key) && key.length % 4 === 0 ? Buffer.from(key, 'base64').length : 0;
  if (bytes < 24 || bytes > 64) {
    ctx.addIssue({
      code: 'custom',
      message: `must hold 24 to 64 bytes in standard base64 after whsec_ (it holds ${bytes === 0 ? 'no valid base64' : `${bytes} bytes`}): ${WEBHOOK_SECRET_HINT}`,
    });
  }
});

/** Where (and how) the proxy posts its signed events; null when WEBHOOK_URL is unset. */
export interface WebhookConfig {
  url: string;
  /** whsec_…: the Standard Webhooks signing secret the board verifies with. */
  secret: string;
  /** WEBHOOK_INCLUDE_CANDIDATE: the candidate's fields go in the events while the proxy holds them. */
  includeCandidate: boolean;
}

export function requireWebhookSecret(
  env: { WEBHOOK_URL?: string | undefined; WEBHOOK_SECRET?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (env.WEBHOOK_URL !== undefined && env.WEBHOOK_SECRET === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_SECRET'],
      message: `is required when WEBHOOK_URL is set: ${WEBHOOK_SECRET_HINT} (give the board the same value)`,
    });
  }
}

/**
 * ALERTS: feed (the default), a search's alert is its Atom feed; webhook,
 * also the hand-off to the board's own mailing (POST /api/alerts, the signed
 * alert.requested event), which needs the webhook it is sent through.
 */
export const ALERT_MODES = ['feed', 'webhook'] as const;
export type AlertMode = (typeof ALERT_MODES)[number];

export const AlertsEnv = z.object({
  ALERTS: z.enum(ALERT_MODES, { error: `must be one of: ${ALERT_MODES.join(', ')}` }).default('feed'),
});

/** ALERTS=webhook hands the candidate's email to the board through WEBHOOK_URL, and the alert's feed links to its pages. */
export function requireAlertWebhook(
  env: { ALERTS: AlertMode; WEBHOOK_URL?: string | undefined; BOARD_OFFER_URL?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (env.ALERTS !== 'webhook') return;
  if (env.WEBHOOK_URL === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['ALERTS'],
      message:
        "is webhook, which hands each alert to the board's mailing as a signed alert.requested event: set WEBHOOK_URL (and WEBHOOK_SECRET) to the board's receiver, or set ALERTS=feed",
    });
  if (env.BOARD_OFFER_URL === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['ALERTS'],
      message:
        "is webhook, whose events carry the search's feed, whose entries link to the offers on the board's pages: set BOARD_OFFER_URL, like https://jobs.acme.example/offers?offer={id}",
    });
}

export const WebhookEnv = z
  .object({
    WEBHOOK_URL: webhookUrl,
    WEBHOOK_SECRET: webhookSecret,
    WEBHOOK_INCLUDE_CANDIDATE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  })
  .superRefine(requireWebhookSecret);

export function webhookConfigOf(e: z.infer<typeof WebhookEnv>): WebhookConfig | null {
  return e.WEBHOOK_URL === undefined
    ? null
    : { url: e.WEBHOOK_URL, secret: e.WEBHOOK_SECRET ?? '', includeCandidate: e.WEBHOOK_INCLUDE_CANDIDATE === 'true' };
}

/** The WEBHOOK_* variables alone, for the commands (webhooks, outbox erase); null when WEBHOOK_URL is unset. */
export function loadWebhookConfig(env: Record<string, string | undefined>): WebhookConfig | null {
  const result = WebhookEnv.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  - ${String(issue.path[0])} ${issue.message}`);
    throw new Error(
      `The webhook configuration is not valid:\n${problems.join('\n')}\nSet these variables as the proxy has them, then run the command again.`,
    );
  }
  return webhookConfigOf(result.data);
}
