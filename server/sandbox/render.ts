// Database rows to the response records of server/contract/records.ts, with
// embeds loaded in one query per embed for a whole page (no N+1).
import type { Application, Applicant, Campaign, Channel } from '../contract/index.ts';
import type { Database } from './db.ts';

export interface CampaignRow {
  id: number;
  company_id: number;
  company_name: string;
  manage_name: string;
  name: string | null;
  description: string | null;
  profile: string | null;
  job_type: string | null;
  contract_duration: number | null;
  job_start_date: string | null;
  date_end: string | null;
  working_time: string | null;
  salary_min: number | null;
  salary_max: number | null;
  unit_id: number | null;
  status: string;
  address: string | null;
  created_at: string;
  updated_at: string;
  last_activation_at: string | null;
}

export interface ApplicationRow {
  id: number;
  company_id: number;
  campaign_id: number;
  applicant_id: number;
  source: string | null;
  status: string;
  is_complete: number;
  resume_path: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApplicantRow {
  id: number;
  company_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  locale: string | null;
  phone_code: string | null;
  phone_number: string | null;
  avatar_url: string | null;
  iso_country: string | null;
  is_partner_newsletter_active: number;
  is_campaign_alert_active: number;
  is_legals_accepted_by_manager: number;
  bio_url: string | null;
  address: string | null;
  resume_path: string | null;
  created_at: string;
  updated_at: string;
}

export const CAMPAIGN_SELECT =
  'SELECT c.*, co.name AS company_name FROM campaigns c JOIN companies co ON co.id = c.company_id';

const CAMPAIGN_ADDRESS_KEYS = [
  'latitude',
  'longitude',
  'street_number',
  'street',
  'postal_code',
  'city',
  'country',
  'name',
] as const;
const APPLICANT_ADDRESS_KEYS = [
  'lat',
  'lon',
  'name',
  'street_number',
  'street',
  'zipcode',
  'city',
  'country',
  'iso_country',
] as const;

function addressOf<K extends string>(
  json: string | null,
  keys: readonly K[],
): Record<K, string | number | null> | null {
  if (json === null) return null;
  const parsed = JSON.parse(json) as Record<string, string | number | undefined>;
  const out = {} as Record<K, string | number | null>;
  for (const key of keys) out[key] = parsed[key] ?? null;
  return out;
}

/** Groups rows by a key column, for batch-loaded embeds. */
function groupBy<T extends Record<string, unknown>>(rows: T[], key: keyof T): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const k = row[key] as number;
    let list = map.get(k);
    if (list === undefined) map.set(k, (list = []));
    list.push(row);
  }
  return map;
}

const IDS = 'SELECT value FROM json_each(?)';

/**
 * The loader of a page's embeds: an embed asked for is read in one query,
 * `sql` taking the page's ids (JSON) as its one parameter, its rows grouped
 * by `key`; one not asked for is undefined.
 */
function embedLoader(db: Database, rows: readonly { id: number }[], embeds: readonly string[]) {
  const ids = JSON.stringify(rows.map((r) => r.id));
  const want = new Set(embeds);
  return <T extends Record<string, unknown>>(embed: string, sql: string, key: keyof T): Map<number, T[]> | undefined =>
    want.has(embed) ? groupBy(db.all<T>(sql, ids), key) : undefined;
}

export function absoluteUrl(origin: string, path: string | null): string | null {
  return path === null ? null : `${origin}${path}`;
}

interface LightUnitRow {
  unit_id: number;
  unit_name: string;
  entity_id: number;
  entity_name: string;
}

function unitsById(db: Database, unitIds: number[]): Map<number, LightUnitRow> {
  if (unitIds.length === 0) return new Map();
  const rows = db.all<LightUnitRow & Record<string, unknown>>(
    `SELECT u.id AS unit_id, u.name AS unit_name, e.id AS entity_id, e.name AS entity_name
       FROM units u JOIN entities e ON e.id = u.entity_id WHERE u.id IN (${IDS})`,
    JSON.stringify(unitIds),
  );
  return new Map(rows.map((r) => [r.unit_id, r]));
}

export function renderCampaigns(db: Database, rows: CampaignRow[], embeds: readonly string[]): Campaign[] {
  const want = new Set(embeds);
  const load = embedLoader(db, rows, embeds);
  const channels = load<Channel & { campaign_id: number }>(
    'channels',
    `SELECT cc.campaign_id, ch.id, ch.value, ch.name, ch.entity_id FROM campaign_channels cc
             JOIN channels ch ON ch.id = cc.channel_id WHERE cc.campaign_id IN (${IDS}) ORDER BY ch.value`,
    'campaign_id',
  );
  const tags = load<{ campaign_id: number; name: string }>(
    'tags',
    `SELECT campaign_id, name FROM campaign_tags WHERE campaign_id IN (${IDS}) ORDER BY name`,
    'campaign_id',
  );
  const units =
    want.has('unit') || want.has('entity')
      ? unitsById(db, [...new Set(rows.flatMap((r) => (r.unit_id === null ? [] : [r.unit_id])))])
      : undefined;
  return rows.map((row) => {
    const record = campaignRecord(row) as Campaign;
    if (want.has('address')) record.address = addressOf(row.address, CAMPAIGN_ADDRESS_KEYS) as Campaign['address'];
    if (channels !== undefined) {
      record.channels = (channels.get(row.id) ?? []).map((c) => ({
        id: c.id,
        value: c.value,
        name: c.name,
        entity_id: c.entity_id,
      }));
    }
    if (tags !== undefined) record.tags = (tags.get(row.id) ?? []).map((t) => t.name);
    const unit = row.unit_id === null ? undefined : units?.get(row.unit_id);
    if (want.has('unit')) record.unit = unit === undefined ? null : { id: unit.unit_id, name: unit.unit_name };
    if (want.has('entity')) record.entity = unit === undefined ? null : { id: unit.entity_id, name: unit.entity_name };
    return record;
  });
}

function campaignRecord(row: CampaignRow): Omit<Campaign, 'address' | 'channels' | 'entity' | 'tags' | 'unit'> {
  return {
    id: row.id,
    company_id: row.company_id,
    company_name: row.company_name,
    manage_name: row.manage_name,
    name: row.name,
    description: row.description,
    profile: row.profile,
    job_type: row.job_type as Campaign['job_type'],
    contract_duration: row.contract_duration,
    job_start_date: row.job_start_date,
    date_end: row.date_end,
    working_time: row.working_time as Campaign['working_time'],
    salary_min: row.salary_min,
    salary_max: row.salary_max,
    unit_id: row.unit_id,
    status: row.status as Campaign['status'],
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_activation_at: row.last_activation_at,
  };
}

function applicationRecord(row: ApplicationRow, origin: string): Application {
  return {
    id: row.id,
    company_id: row.company_id,
    campaign_id: row.campaign_id,
    applicant_id: row.applicant_id,
    source: row.source,
    status: row.status,
    is_complete: row.is_complete === 1,
    resume_url: absoluteUrl(origin, row.resume_path),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The campaign embed of applications: each campaign with its entity and unit. */
function campaignsOf(db: Database, rows: ApplicationRow[]): Map<number, NonNullable<Application['campaign']>> {
  const campaignRows = db.all<{
    id: number;
    name: string | null;
    manage_name: string;
    status: string;
    unit_id: number | null;
  }>(
    `SELECT id, name, manage_name, status, unit_id FROM campaigns WHERE id IN (${IDS})`,
    JSON.stringify([...new Set(rows.map((r) => r.campaign_id))]),
  );
  const units = unitsById(db, [...new Set(campaignRows.flatMap((c) => (c.unit_id === null ? [] : [c.unit_id])))]);
  return new Map(
    campaignRows.map((c) => {
      const unit = c.unit_id === null ? undefined : units.get(c.unit_id);
      return [
        c.id,
        {
          id: c.id,
          name: c.name,
          manage_name: c.manage_name,
          status: c.status as Campaign['status'],
          entity: unit === undefined ? null : { id: unit.entity_id, name: unit.entity_name },
          unit: unit === undefined ? null : { id: unit.unit_id, name: unit.unit_name },
        },
      ];
    }),
  );
}

/**
 * Applications with embeds. `status_history:<value>` restricts the history
 * to changes to that value; plain `status_history` (if also given) wins.
 */
export function renderApplications(
  db: Database,
  rows: ApplicationRow[],
  embeds: readonly string[],
  origin: string,
): Application[] {
  const ids = JSON.stringify(rows.map((r) => r.id));
  const want = new Set(embeds);
  const load = embedLoader(db, rows, embeds);
  const historyValues = embeds
    .filter((e) => e.startsWith('status_history:'))
    .map((e) => e.slice('status_history:'.length));
  const wantHistory = want.has('status_history') || historyValues.length > 0;

  const applicants = want.has('applicant')
    ? new Map(
        db
          .all<{ id: number; email: string; first_name: string | null; last_name: string | null }>(
            `SELECT id, email, first_name, last_name FROM applicants WHERE id IN (${IDS})`,
            JSON.stringify([...new Set(rows.map((r) => r.applicant_id))]),
          )
          .map((a) => [a.id, { id: a.id, email: a.email, first_name: a.first_name, last_name: a.last_name }]),
      )
    : undefined;
  const campaigns = want.has('campaign') ? campaignsOf(db, rows) : undefined;
  const comments = load<{
    id: number;
    application_id: number;
    content: string | null;
    attachment_path: string | null;
    created_at: string;
  }>(
    'comments',
    `SELECT id, application_id, content, attachment_path, created_at FROM comments WHERE application_id IN (${IDS}) ORDER BY id`,
    'application_id',
  );
  const skills = load<{ application_id: number; name: string }>(
    'skills',
    `SELECT application_id, name FROM skills WHERE application_id IN (${IDS}) ORDER BY name`,
    'application_id',
  );
  const history = wantHistory
    ? groupBy(
        want.has('status_history')
          ? db.all<{ application_id: number; value: string; changed_at: string }>(
              `SELECT application_id, value, changed_at FROM status_changes WHERE application_id IN (${IDS}) ORDER BY changed_at, id`,
              ids,
            )
          : db.all<{ application_id: number; value: string; changed_at: string }>(
              `SELECT application_id, value, changed_at FROM status_changes WHERE application_id IN (${IDS}) AND value IN (${IDS}) ORDER BY changed_at, id`,
              ids,
              JSON.stringify(historyValues),
            ),
        'application_id',
      )
    : undefined;
  const tags = load<{ application_id: number; name: string }>(
    'tags',
    `SELECT application_id, name FROM application_tags WHERE application_id IN (${IDS}) ORDER BY name`,
    'application_id',
  );

  return rows.map((row) => {
    const record = applicationRecord(row, origin);
    if (applicants !== undefined) {
      const applicant = applicants.get(row.applicant_id);
      if (applicant !== undefined) record.applicant = applicant;
    }
    if (campaigns !== undefined) {
      const campaign = campaigns.get(row.campaign_id);
      if (campaign !== undefined) record.campaign = campaign;
    }
    if (comments !== undefined) {
      record.comments = (comments.get(row.id) ?? []).map((c) => ({
        id: c.id,
        content: c.content,
        attachment_url: absoluteUrl(origin, c.attachment_path),
        created_at: c.created_at,
      }));
    }
    if (skills !== undefined) record.skills = (skills.get(row.id) ?? []).map((s) => ({ name: s.name }));
    if (history !== undefined)
      record.status_history = (history.get(row.id) ?? []).map((h) => ({ value: h.value, changed_at: h.changed_at }));
    if (tags !== undefined) record.tags = (tags.get(row.id) ?? []).map((t) => t.name);
    return record;
  });
}

export function renderApplicants(
  db: Database,
  rows: ApplicantRow[],
  embeds: readonly string[],
  origin: string,
): Applicant[] {
  const want = new Set(embeds);
  const load = embedLoader(db, rows, embeds);
  const applications = load<ApplicationRow & Record<string, unknown>>(
    'applications',
    `SELECT * FROM applications WHERE applicant_id IN (${IDS}) ORDER BY created_at DESC, id DESC`,
    'applicant_id',
  );
  const pools = load<{ applicant_id: number; id: number; name: string }>(
    'pools',
    `SELECT ap.applicant_id, p.id, p.name FROM applicant_pools ap JOIN pools p ON p.id = ap.pool_id WHERE ap.applicant_id IN (${IDS}) ORDER BY p.name`,
    'applicant_id',
  );
  return rows.map((row) => {
    const record: Applicant = {
      id: row.id,
      company_id: row.company_id,
      email: row.email,
      first_name: row.first_name,
      last_name: row.last_name,
      locale: row.locale as Applicant['locale'],
      phone_code: row.phone_code,
      phone_number: row.phone_number,
      avatar_url: row.avatar_url,
      iso_country: row.iso_country,
      is_partner_newsletter_active: row.is_partner_newsletter_active === 1,
      is_campaign_alert_active: row.is_campaign_alert_active === 1,
      is_legals_accepted_by_manager: row.is_legals_accepted_by_manager === 1,
      bio_url: row.bio_url,
      resume_url: absoluteUrl(origin, row.resume_path),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
    if (want.has('address')) record.address = addressOf(row.address, APPLICANT_ADDRESS_KEYS) as Applicant['address'];
    if (applications !== undefined)
      record.applications = (applications.get(row.id) ?? []).map((a) => applicationRecord(a, origin));
    if (pools !== undefined) record.pools = (pools.get(row.id) ?? []).map((p) => ({ id: p.id, name: p.name }));
    return record;
  });
}
