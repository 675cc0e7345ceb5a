// Proxy configuration: environment variables (and an optional JSON file named
// by CONFIG_FILE, whose keys are the same names), validated once at start-up.
// A wrong value stops the start with a message naming the variable.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { packagePath } from '../package-root.ts';
import type { ConfigurableField, FieldMode } from '../public-api/application-form.ts';
import type { PaceRule } from './applications/upload-pace.ts';
import type { Locale } from '../contract/values.ts';
import {
  boardLanguage,
  boardOfferUrl,
  dashboardToken,
  databaseUrl,
  formFields,
  optionalText,
  originList,
  positiveInt,
  schemeHint,
  spontaneousApplications,
  trustProxy,
} from './config-values.ts';
import type { SpontaneousCompanies } from '../public-api/spontaneous-companies.ts';
import { likelyMeant, typoProblems } from './env-typos.ts';
import { readStatusLabels } from './status-labels.ts';
import type { StatusLabels } from './status-labels.ts';
import {
  AlertsEnv,
  WebhookEnv,
  requireAlertWebhook,
  requireWebhookSecret,
  webhookConfigOf,
} from './webhooks/config.ts';
import type { AlertMode, WebhookConfig } from './webhooks/config.ts';

const CAPTCHA_VERIFY_URLS = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
} as const;

const GIB = 1024 * 1024 * 1024;

/** How long a dead-lettered or refused application keeps its personal data, in days. */
export const DEFAULT_PERSONAL_DATA_RETENTION_DAYS = 30;

/** How long after delivery the status sync follows an application, in days. */
export const DEFAULT_STATUS_SYNC_DAYS = 90;

/** The least time between two reads of one application's status, in minutes (6 hours). */
export const DEFAULT_STATUS_SYNC_INTERVAL_MINUTES = 360;

/** BOARD_LANG alone, for the commands that need only it (offers check); fr when unset or empty. */
export function loadBoardLanguage(env: Record<string, string | undefined>): Locale {
  const result = boardLanguage.safeParse(env.BOARD_LANG === '' ? undefined : env.BOARD_LANG);
  if (!result.success) throw new ConfigError([`BOARD_LANG ${result.error.issues[0]?.message ?? 'is not valid'}`]);
  return result.data;
}

/** DATABASE_URL alone, for the commands that need only the store (outbox, migrate); null when unset. */
export function loadDatabaseUrl(env: Record<string, string | undefined>): string | null {
  const result = databaseUrl.safeParse(env.DATABASE_URL);
  if (!result.success) throw new ConfigError([`DATABASE_URL ${result.error.issues[0]?.message ?? 'is not valid'}`]);
  return result.data ?? null;
}

const EnvSchema = z
  .object({
    UPSTREAM_URL: z
      .url({
        protocol: /^https?$/,
        error: (issue) =>
          `must be the http(s) URL of the API root, ending in /v2${schemeHint(issue.input, 'https://api.recruitment.example/v2')}`,
      })
      // Without /v2 every call would answer 404, and the proxy would only say its sync fails. A value that is
      // no URL at all was named above: this check must not throw (new URL would), or it hides every other problem.
      .refine(
        (v) => !URL.canParse(v) || /\/v2\/?$/.test(new URL(v).pathname),
        'must end in /v2 (the API root), like https://api.recruitment.example/v2',
      ),
    UPSTREAM_PRIVATE_KEY: z
      .string({ error: 'is required: the private key of your job-board API client' })
      .min(1, 'is required: the private key of your job-board API client'),
    UPSTREAM_SECRET_KEY: z
      .string({ error: 'is required: the secret key of your job-board API client' })
      .min(1, 'is required: the secret key of your job-board API client'),
    JOBBOARD_CHANNEL: z
      .string({ error: 'is required: the channel value of your job board, like jobboard_acme' })
      .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'must be a channel value, like jobboard_acme'),
    APPLICATION_SOURCE: z
      .string()
      .regex(
        /^[A-Za-z0-9_.-]{1,100}$/,
        "must be one of the companies' application sources, like jobboard_acme (letters, digits, _ . -, at most 100)",
      )
      .optional(),
    TRACK_UTM: z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'),
    FUNNEL: z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'),
    SPONTANEOUS_APPLICATIONS: spontaneousApplications,
    ALLOWED_ORIGINS: originList,
    PUBLIC_ORIGIN: originList.refine(
      (origins) => origins.length <= 1,
      'must be one origin, the one at which browsers reach this proxy, like https://jobs.acme.example',
    ),
    PORT: z.coerce
      .number({ error: 'must be a port number from 0 to 65535' })
      .int()
      .min(0)
      .max(65535, 'must be a port number from 0 to 65535')
      .default(8080),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: databaseUrl,
    MAX_RESUME_BYTES: positiveInt('a number of bytes, like 10485760').default(10 * 1024 * 1024),
    CAPTCHA_PROVIDER: z
      .enum(['none', 'turnstile', 'hcaptcha'], { error: 'must be none, turnstile or hcaptcha' })
      .default('none'),
    CAPTCHA_SECRET: optionalText,
    CAPTCHA_SITE_KEY: optionalText,
    CAPTCHA_VERIFY_URL: z
      .url({
        protocol: /^https?$/,
        error: (issue) => `must be an http(s) URL${schemeHint(issue.input, 'https://captcha.example/siteverify')}`,
      })
      .optional(),
    TRUST_PROXY: trustProxy,
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    SYNC_INTERVAL_SECONDS: positiveInt('a whole number of seconds, at least 10')
      .min(10, 'must be at least 10 seconds')
      .default(300),
    SYNC_BUDGET_SHARE: z.coerce
      .number({
        error: 'must be a number greater than 0 and at most 1, like 0.25 (a quarter of the 120 requests a minute)',
      })
      .gt(0, {
        error: 'must be a number greater than 0 and at most 1, like 0.25 (a quarter of the 120 requests a minute)',
        abort: true,
      })
      .max(1, 'must be a number greater than 0 and at most 1, like 0.25 (a quarter of the 120 requests a minute)')
      .default(0.25),
    CONSENT_URL: z
      .url({
        protocol: /^https?$/,
        error: (issue) =>
          `must be the http(s) URL of your privacy policy${schemeHint(issue.input, 'https://board.example/privacy')}`,
      })
      .optional(),
    BOARD_LANG: boardLanguage,
    BOARD_OFFER_URL: boardOfferUrl,
    BOARD_OG_IMAGE: z
      .url({
        protocol: /^https$/,
        error: (issue) =>
          `must be the https URL of an image${schemeHint(issue.input, 'https://jobs.acme.example/share.png')}`,
      })
      .optional(),
    FORM_FIELDS: formFields,
    DELIVERY_DEADLINE_MS: positiveInt('a whole number of milliseconds').default(5000),
    DELIVERY_LEASE_SECONDS: positiveInt('a whole number of seconds, at least 10, like 60')
      .min(10, 'must be at least 10 seconds, like 60')
      .default(60),
    DEAD_LETTER_AFTER_HOURS: positiveInt('a whole number of hours').default(72),
    APPLY_RATE_LIMIT_PER_IP: positiveInt('a whole number of applications per hour').default(30),
    APPLY_RATE_LIMIT_PER_EMAIL: positiveInt('a whole number of applications per day').default(10),
    SEARCH_RATE_LIMIT_PER_MINUTE: positiveInt('a whole number of searches per minute').default(60),
    PERSONAL_DATA_RETENTION_DAYS: positiveInt('a whole number of days, at least 1, like 30').default(
      DEFAULT_PERSONAL_DATA_RETENTION_DAYS,
    ),
    WIDGET_FILE: z.string().optional(),
    UPLOAD_TIMEOUT_SECONDS: positiveInt('a whole number of seconds').default(120),
    MAX_CONCURRENT_UPLOADS: positiveInt('a whole number of uploads').default(50),
    MAX_CONCURRENT_UPLOADS_PER_IP: positiveInt('a whole number of uploads').default(4),
    MAX_CONCURRENT_UPLOADS_PER_NETWORK: positiveInt('a whole number of uploads').default(10),
    UPLOAD_MIN_BYTES_PER_SECOND: z.coerce
      .number({ error: 'must be a number of bytes a second, like 4096, or 0 for no minimum' })
      .int({ error: 'must be a number of bytes a second, like 4096, or 0 for no minimum', abort: true })
      .min(0, 'must be a number of bytes a second, like 4096, or 0 for no minimum')
      .default(4096),
    UPLOAD_GRACE_SECONDS: positiveInt('a whole number of seconds, like 10').default(10),
    MAX_QUEUED_BYTES: positiveInt('a number of bytes, like 5368709120 (5 GiB)').default(5 * GIB),
    MIN_FREE_DISK_BYTES: z.coerce
      .number({ error: 'must be a number of bytes, like 1073741824 (1 GiB), or 0 for no floor' })
      .int({ error: 'must be a number of bytes, like 1073741824 (1 GiB), or 0 for no floor', abort: true })
      .min(0, 'must be a number of bytes, like 1073741824 (1 GiB), or 0 for no floor')
      .default(GIB),
    METRICS_PORT: z.coerce
      .number({ error: 'must be a port number from 0 to 65535' })
      .int()
      .min(0)
      .max(65535, 'must be a port number from 0 to 65535')
      .default(9464),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    ALLOW_EMPTY_CATALOGUE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
    ...WebhookEnv.shape,
    ...AlertsEnv.shape,
    STATUS_SYNC_DAYS: z.coerce
      .number({ error: 'must be a whole number of days, like 90, or 0 to turn the status sync off' })
      .int({ error: 'must be a whole number of days, like 90, or 0 to turn the status sync off', abort: true })
      .min(0, 'must be a whole number of days, like 90, or 0 to turn the status sync off')
      .default(DEFAULT_STATUS_SYNC_DAYS),
    STATUS_SYNC_INTERVAL_MINUTES: positiveInt(
      'a whole number of minutes, at least 1, like 360 (6 hours; 1 to see a status change within minutes in a trial)',
    ).default(DEFAULT_STATUS_SYNC_INTERVAL_MINUTES),
    STATUS_LABELS: optionalText,
    DASHBOARD_TOKEN: dashboardToken,
  })
  .superRefine((env, ctx) => {
    requireWebhookSecret(env, ctx);
    requireAlertWebhook(env, ctx);
    if (env.MAX_CONCURRENT_UPLOADS_PER_NETWORK < env.MAX_CONCURRENT_UPLOADS_PER_IP) {
      ctx.addIssue({
        code: 'custom',
        path: ['MAX_CONCURRENT_UPLOADS_PER_NETWORK'],
        message: `must be at least MAX_CONCURRENT_UPLOADS_PER_IP (${env.MAX_CONCURRENT_UPLOADS_PER_IP}): a network holds addresses`,
      });
    }
    if (env.CAPTCHA_PROVIDER !== 'none') {
      if (env.CAPTCHA_SECRET === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['CAPTCHA_SECRET'],
          message: `is required when CAPTCHA_PROVIDER is ${env.CAPTCHA_PROVIDER}`,
        });
      }
      if (env.CAPTCHA_SITE_KEY === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['CAPTCHA_SITE_KEY'],
          message: `is required when CAPTCHA_PROVIDER is ${env.CAPTCHA_PROVIDER}`,
        });
      }
    }
  });

export const ENV_VARIABLES = Object.keys(EnvSchema.shape) as readonly string[];

/** Names the proxy reads besides ENV_VARIABLES. */
const CONFIG_FILE_VARIABLE = 'CONFIG_FILE';

export interface ProxyConfig {
  upstream: { url: string; privateKey: string; secretKey: string };
  channel: string;
  /** The `source` of every application sent (APPLICATION_SOURCE, else the channel). */
  applicationSource: string;
  /** Keep the candidates' campaign parameters (utm_*) and tell the company (TRACK_UTM). */
  trackUtm: boolean;
  /** Count the board's funnel (FUNNEL): the widget's beacons (POST /api/funnel) and the proxy's own stages. */
  funnel: boolean;
  /** The companies that take spontaneous applications (SPONTANEOUS_APPLICATIONS): `all`, or their ids; empty: none. */
  spontaneousApplications: SpontaneousCompanies;
  allowedOrigins: string[];
  /** The proxy's own public origin (PUBLIC_ORIGIN), a page on it is same-origin; null when not set. */
  publicOrigin: string | null;
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL (DATABASE_URL) for what the instances share; null: SQLite files in dataDir, one instance. */
  databaseUrl: string | null;
  maxResumeBytes: number;
  captcha: { provider: 'turnstile' | 'hcaptcha'; secret: string; siteKey: string; verifyUrl: string } | null;
  trustProxy: boolean | number | string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  syncIntervalSeconds: number;
  /** The share of the service's requests a minute that catalogue syncs may spend (SYNC_BUDGET_SHARE). */
  syncBudgetShare: number;
  consentUrl: string | null;
  /** The language of the board's offers (BOARD_LANG): the offer checks' and, failing the browser's, the dashboard's. */
  boardLang: Locale;
  /** The template of an offer's URL on the board's pages ({id}), for the sitemap and the JobPosting; null when not set. */
  boardOfferUrl: string | null;
  /** The image of a shared offer's link preview (BOARD_OG_IMAGE, og:image), the service giving none; null when not set. */
  boardOgImage: string | null;
  fields: Record<ConfigurableField, FieldMode>;
  deliveryDeadlineMs: number;
  /** How long a delivery attempt's claim on an application lasts unrenewed: a stopped instance's applications wait this long at most. */
  deliveryLeaseMs: number;
  deadLetterAfterHours: number;
  applyRateLimitPerIp: number;
  /** GET /api/campaigns searches (with q) a minute from one address (SEARCH_RATE_LIMIT_PER_MINUTE). */
  searchRateLimitPerMinute: number;
  applyRateLimitPerEmail: number;
  /** Days a dead-lettered or refused application keeps its personal data before it is erased. */
  personalDataRetentionDays: number;
  widgetFile: string;
  /** The longest a request may take to arrive whole, resume included (Node's requestTimeout). */
  uploadTimeoutMs: number;
  /** Applications being received at once; beyond, 503 before the body is read. */
  maxConcurrentUploads: number;
  /** Of those, from one address (an IPv6 /64); beyond, 503 before the body is read. */
  maxConcurrentUploadsPerIp: number;
  /** Of those, from one network (an IPv6 /48; an IPv4 /24 from X-Forwarded-For); beyond, 503 before the body is read. */
  maxConcurrentUploadsPerNetwork: number;
  /** The slowest pace an application's body may arrive at after its grace (UPLOAD_MIN_BYTES_PER_SECOND, UPLOAD_GRACE_SECONDS). */
  uploadPace: PaceRule;
  /** Total size of the resumes the store holds for applications not yet delivered; beyond, 503 before the body is read. */
  maxQueuedBytes: number;
  /** Free space DATA_DIR's disk keeps; below, 503 before the body is read (0: no floor). */
  minFreeDiskBytes: number;
  /** Where /metrics is served: a listener of its own, off the public port. */
  metrics: { port: number; host: string };
  /** Start even when the channel lists no online offer (a board that legitimately starts empty). */
  allowEmptyCatalogue: boolean;
  /** Signed events to the board (WEBHOOK_URL); null when not set. */
  webhook: WebhookConfig | null;
  /** ALERTS: feed, or webhook (the email hand-off, POST /api/alerts, which needs webhook and boardOfferUrl). */
  alerts: AlertMode;
  /** Days after delivery the status sync follows an application (0: no status sync). */
  statusSyncDays: number;
  /** The least time between two reads of one application's status, in minutes (STATUS_SYNC_INTERVAL_MINUTES). */
  statusSyncIntervalMinutes: number;
  /** The board's labels of the company's status values (STATUS_LABELS); empty: no status is shown to candidates. */
  statusLabels: StatusLabels;
  /** The secret of the board's dashboard and GET /api/stats (DASHBOARD_TOKEN); null: neither is served. */
  dashboardToken: string | null;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(
      `The proxy cannot start: its configuration is not valid.\n${problems.map((p) => `  - ${p}`).join('\n')}\nSet these environment variables (see the README's proxy section) and start again.`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

function readConfigFile(path: string): Record<string, string> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError([`CONFIG_FILE: cannot read ${path} as JSON (${(error as Error).message})`]);
  }
  const parsed = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError([`CONFIG_FILE: ${path} must hold one JSON object of VARIABLE: value pairs`]);
  }
  return Object.fromEntries(Object.entries(parsed.data).map(([k, v]) => [k, String(v)]));
}

/** Reads the configuration; throws ConfigError listing every wrong variable. */
export function loadProxyConfig(env: Record<string, string | undefined> = process.env): ProxyConfig {
  const fromFile = env.CONFIG_FILE ? readConfigFile(env.CONFIG_FILE) : {};
  // Every problem at once: unknown names in the file, likely typos in the environment, wrong values.
  const problems = Object.keys(fromFile)
    .filter((k) => !ENV_VARIABLES.includes(k))
    .map((k) => {
      const meant = likelyMeant(k, ENV_VARIABLES);
      return `CONFIG_FILE: unknown variable ${k}; ${meant === undefined ? `known: ${ENV_VARIABLES.join(', ')}` : `did you mean ${meant}?`}`;
    });
  problems.push(...typoProblems(Object.keys(env), [...ENV_VARIABLES, CONFIG_FILE_VARIABLE]));
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const key of ENV_VARIABLES) {
    if (env[key] !== undefined && env[key] !== '') merged[key] = env[key];
  }
  const result = EnvSchema.safeParse(merged);
  if (!result.success) {
    problems.push(
      ...result.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'configuration');
        const message = issue.code === 'invalid_type' && merged[name] === undefined ? 'is required' : issue.message;
        return `${name} ${message}`;
      }),
    );
  }
  let statusLabels: StatusLabels = new Map();
  const labelsPath = result.success ? result.data.STATUS_LABELS : undefined;
  if (labelsPath !== undefined) {
    try {
      statusLabels = readStatusLabels(resolve(labelsPath));
    } catch (error) {
      problems.push(`STATUS_LABELS ${(error as Error).message}`);
    }
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  const e = result.data;
  return {
    upstream: {
      url: e.UPSTREAM_URL.replace(/\/+$/, ''),
      privateKey: e.UPSTREAM_PRIVATE_KEY,
      secretKey: e.UPSTREAM_SECRET_KEY,
    },
    channel: e.JOBBOARD_CHANNEL,
    applicationSource: e.APPLICATION_SOURCE ?? e.JOBBOARD_CHANNEL,
    trackUtm: e.TRACK_UTM === 'true',
    funnel: e.FUNNEL === 'true',
    spontaneousApplications: e.SPONTANEOUS_APPLICATIONS,
    allowedOrigins: e.ALLOWED_ORIGINS,
    publicOrigin: e.PUBLIC_ORIGIN[0] ?? null,
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    maxResumeBytes: e.MAX_RESUME_BYTES,
    captcha:
      e.CAPTCHA_PROVIDER === 'none'
        ? null
        : {
            provider: e.CAPTCHA_PROVIDER,
            secret: e.CAPTCHA_SECRET ?? '',
            siteKey: e.CAPTCHA_SITE_KEY ?? '',
            verifyUrl: e.CAPTCHA_VERIFY_URL ?? CAPTCHA_VERIFY_URLS[e.CAPTCHA_PROVIDER],
          },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    syncIntervalSeconds: e.SYNC_INTERVAL_SECONDS,
    syncBudgetShare: e.SYNC_BUDGET_SHARE,
    consentUrl: e.CONSENT_URL ?? null,
    boardLang: e.BOARD_LANG,
    boardOfferUrl: e.BOARD_OFFER_URL ?? null,
    boardOgImage: e.BOARD_OG_IMAGE ?? null,
    fields: e.FORM_FIELDS,
    deliveryDeadlineMs: e.DELIVERY_DEADLINE_MS,
    deliveryLeaseMs: e.DELIVERY_LEASE_SECONDS * 1000,
    deadLetterAfterHours: e.DEAD_LETTER_AFTER_HOURS,
    applyRateLimitPerIp: e.APPLY_RATE_LIMIT_PER_IP,
    applyRateLimitPerEmail: e.APPLY_RATE_LIMIT_PER_EMAIL,
    searchRateLimitPerMinute: e.SEARCH_RATE_LIMIT_PER_MINUTE,
    personalDataRetentionDays: e.PERSONAL_DATA_RETENTION_DAYS,
    widgetFile: resolve(e.WIDGET_FILE ?? packagePath('dist', 'widget', 'widget.js')),
    uploadTimeoutMs: e.UPLOAD_TIMEOUT_SECONDS * 1000,
    maxConcurrentUploads: e.MAX_CONCURRENT_UPLOADS,
    maxConcurrentUploadsPerIp: e.MAX_CONCURRENT_UPLOADS_PER_IP,
    maxConcurrentUploadsPerNetwork: e.MAX_CONCURRENT_UPLOADS_PER_NETWORK,
    uploadPace: { minBytesPerSecond: e.UPLOAD_MIN_BYTES_PER_SECOND, periodMs: e.UPLOAD_GRACE_SECONDS * 1000 },
    maxQueuedBytes: e.MAX_QUEUED_BYTES,
    minFreeDiskBytes: e.MIN_FREE_DISK_BYTES,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST },
    allowEmptyCatalogue: e.ALLOW_EMPTY_CATALOGUE === 'true',
    webhook: webhookConfigOf(e),
    alerts: e.ALERTS,
    statusSyncDays: e.STATUS_SYNC_DAYS,
    statusSyncIntervalMinutes: e.STATUS_SYNC_INTERVAL_MINUTES,
    statusLabels,
    dashboardToken: e.DASHBOARD_TOKEN ?? null,
  };
}
