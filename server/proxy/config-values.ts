// Parts of the configuration's parsing (config.ts, webhooks/config.ts): the
// schemas of the variables whose values take more than a type to check.
import { isIP } from 'node:net';
import { z } from 'zod';
import { CONFIGURABLE_FIELDS, DEFAULT_FIELD_MODES, FIELD_MODES } from '../public-api/application-form.ts';
import type { ConfigurableField, FieldMode } from '../public-api/application-form.ts';
import { LOCALES } from '../contract/values.ts';
import { serviceIdOf } from '../public-api/query-values.ts';
import type { SpontaneousCompanies } from '../public-api/spontaneous-companies.ts';

/** The names of this machine that an http:// URL may use (anything else must be https). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A text variable: trimmed, and unset when empty. */
export const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** ", with its scheme, like https://…": said when a URL was written without its http(s):// (api.example/v2). */
export function schemeHint(input: unknown, example: string): string {
  return typeof input === 'string' && input !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(input)
    ? `, with its scheme: write https://${input} (like ${example})`
    : '';
}

// abort: one message per variable (SYNC_INTERVAL_SECONDS=-1 said it twice, also failing its min).
export const positiveInt = (what: string) =>
  z.coerce
    .number({ error: `must be ${what}` })
    .int({ error: `must be ${what}`, abort: true })
    .positive({ error: `must be ${what}`, abort: true });

/** "https://a.example, https://b.example" → origins, each checked. */
export const originList = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const origins = v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    for (const origin of origins) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      if (parsed === undefined || parsed.origin !== origin) {
        ctx.addIssue({
          code: 'custom',
          message: `"${origin}" is not an origin; write scheme, host and port only, like https://board.example`,
        });
      }
    }
    return origins;
  });

/** "phone:required,bio_url:hidden" → per-field modes over the defaults. */
export const formFields = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const fields = { ...DEFAULT_FIELD_MODES };
    for (const item of v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')) {
      const [name, mode] = item.split(':').map((s) => s.trim());
      if (!(CONFIGURABLE_FIELDS as readonly string[]).includes(name ?? '')) {
        ctx.addIssue({ code: 'custom', message: `unknown field "${name}"; known: ${CONFIGURABLE_FIELDS.join(', ')}` });
      } else if (!(FIELD_MODES as readonly string[]).includes(mode ?? '')) {
        ctx.addIssue({
          code: 'custom',
          message: `field "${name}" needs one of ${FIELD_MODES.join(', ')}, like ${name}:optional`,
        });
      } else {
        fields[name as ConfigurableField] = mode as FieldMode;
      }
    }
    return fields;
  });

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a subnet (`10.0.0.0/8`, `10.0.0.0/255.0.0.0`) or a name Express knows (`loopback`). */
function isTrustedHop(value: string): boolean {
  if (TRUST_PROXY_NAMES.has(value)) return true;
  const [address = '', range, ...rest] = value.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  if (range === undefined) return true;
  return (/^\d{1,3}$/.test(range) && Number(range) <= (isIP(address) === 4 ? 32 : 128)) || isIP(range) === 4;
}

/** TRUST_PROXY as Express takes it: false, true, a hop count, or addresses/subnets. */
export const trustProxy = z
  .string()
  .default('false')
  .transform((v, ctx): boolean | number | string[] => {
    const s = v.trim();
    if (s === 'false' || s === '') return false;
    if (s === 'true') return true;
    if (/^\d+$/.test(s)) return Number(s);
    const hops = s
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    for (const hop of hops.filter((h) => !isTrustedHop(h))) {
      ctx.addIssue({
        code: 'custom',
        message: `"${hop}" is not an address or subnet; write false, a hop count like 1, or addresses and subnets like 10.0.0.0/8,127.0.0.1`,
      });
    }
    return hops;
  });

/** The URL of an offer on the board's own pages: a template where {id} is the offer's id. */
export const boardOfferUrl = z
  .string()
  .optional()
  .superRefine((template, ctx) => {
    if (template === undefined) return;
    const example = 'like https://jobs.example.com/offers?offer={id}';
    if (template.split('{id}').length !== 2) {
      ctx.addIssue({ code: 'custom', message: `must hold {id} exactly once, where the offer's id goes, ${example}` });
      return;
    }
    const url = URL.parse(template.replace('{id}', '1'));
    if (url === null || !/^https?:$/.test(url.protocol)) {
      ctx.addIssue({ code: 'custom', message: `must be an absolute http(s) URL, ${example}` });
    }
  });

/**
 * BOARD_LANG: the language of the board's offers and pages, one of the
 * widget's; French unless set. The offer checks read the ads against it and
 * the dashboard speaks it when the browser asks for none of its languages.
 */
export const boardLanguage = z
  .enum(LOCALES, {
    error: `must be one of ${LOCALES.join(', ')}: the language of the board's offers (fr unless set)`,
  })
  .default('fr');

/** DATABASE_URL: optional; when set, a postgres:// or postgresql:// URL naming a host. */
export const databaseUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .refine(
    (v) =>
      v === undefined ||
      (URL.canParse(v) && /^postgres(ql)?:$/.test(new URL(v).protocol) && new URL(v).hostname !== ''),
    'must be a PostgreSQL URL, like postgres://user:password@db.internal:5432/jobboard (or leave it unset to keep the data in DATA_DIR with SQLite)',
  );

/** DASHBOARD_TOKEN: optional; when set, a secret long enough not to be guessed, and sendable in an Authorization header. */
export const dashboardToken = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .refine(
    (v) => v === undefined || /^[\x21-\x7e]{16,200}$/.test(v),
    'must be 16 to 200 visible ASCII characters without spaces, a random secret like the output of `openssl rand -base64 24` (or leave it unset: no dashboard, no GET /api/stats)',
  );

const SPONTANEOUS_EXAMPLE =
  'like 12,34 (company ids), or all (every company of the catalogue); leave it unset for none';

/** SPONTANEOUS_APPLICATIONS: `all`, or company ids separated by commas; unset or empty: off (an empty list). */
export const spontaneousApplications = z
  .string()
  .default('')
  .transform((v, ctx): SpontaneousCompanies => {
    const s = v.trim();
    if (s.toLowerCase() === 'all') return 'all';
    const ids: number[] = [];
    if (s === '') return ids;
    for (const item of s.split(',').map((p) => p.trim())) {
      const id = serviceIdOf(item);
      if (id !== undefined) {
        if (!ids.includes(id)) ids.push(id);
      } else {
        ctx.addIssue({
          code: 'custom',
          message: `"${item}" is not a company id; write all, or company ids separated by commas, ${SPONTANEOUS_EXAMPLE}`,
        });
      }
    }
    return ids;
  });
