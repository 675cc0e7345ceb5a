// What an API client may see. A company client sees its company's records.
// A job-board client sees the campaigns broadcast on its channel value (of
// any company), and the applicants and applications it created itself.
import type { ApiClient } from './auth.ts';
import type { Database } from './db.ts';
import { SandboxError } from './errors.ts';
import { CAMPAIGN_SELECT } from './render.ts';
import type { CampaignRow } from './render.ts';

export interface CompanyRow {
  id: number;
  name: string;
  entity_option: number;
  skills_option: number;
  sources: string;
  restricted_tags: string | null;
  duplicate_applications: 'refuse' | 'accept';
  created_at: string;
}

export function companyById(db: Database, id: number): CompanyRow | undefined {
  return db.get<CompanyRow>('SELECT * FROM companies WHERE id = ?', id);
}

export function isJobboard(client: ApiClient): client is ApiClient & { channel: string } {
  return client.channel !== null;
}

/** SQL condition (on alias c) selecting the campaigns a client may read. */
export function campaignScope(client: ApiClient): { sql: string; params: (string | number)[] } {
  if (isJobboard(client)) {
    return {
      // EXISTS per campaign, not an IN list: a list then reads campaigns in its order's index and stops at its page,
      // instead of sorting every broadcast campaign (seconds a page at 50,000).
      sql: `EXISTS (SELECT 1 FROM campaign_channels cc JOIN channels ch ON ch.id = cc.channel_id WHERE cc.campaign_id = c.id AND ch.value = ?)`,
      params: [client.channel],
    };
  }
  return { sql: 'c.company_id = ?', params: [client.company_id ?? -1] };
}

/** SQL condition (on alias a) selecting the applications or applicants a client may read. */
export function ownScope(client: ApiClient, alias: string): { sql: string; params: number[] } {
  return isJobboard(client)
    ? { sql: `${alias}.created_by_client = ?`, params: [client.id] }
    : { sql: `${alias}.company_id = ?`, params: [client.company_id ?? -1] };
}

/** The row of `table` matching `condition` (on alias r) that the client owns (ownScope), if any. */
export function ownRow<T>(
  db: Database,
  client: ApiClient,
  table: 'applicants' | 'applications',
  condition: string,
  value: number | string,
): T | undefined {
  const scope = ownScope(client, 'r');
  return db.get<T>(`SELECT r.* FROM ${table} r WHERE ${condition} AND ${scope.sql}`, value, ...scope.params);
}

export function visibleCampaign(db: Database, client: ApiClient, id: number): CampaignRow | undefined {
  const scope = campaignScope(client);
  return db.get<CampaignRow>(`${CAMPAIGN_SELECT} WHERE c.id = ? AND ${scope.sql}`, id, ...scope.params);
}

export function isBroadcastOn(db: Database, campaignId: number, channel: string): boolean {
  return (
    db.get(
      'SELECT 1 AS yes FROM campaign_channels cc JOIN channels ch ON ch.id = cc.channel_id WHERE cc.campaign_id = ? AND ch.value = ?',
      campaignId,
      channel,
    ) !== undefined
  );
}

/** The company a company client works for; job-board clients are refused with a pointer to their endpoint. */
export function companyOfClient(db: Database, client: ApiClient, endpoint: string): CompanyRow {
  if (isJobboard(client)) {
    throw new SandboxError(
      'wrong_client_kind',
      `${endpoint} is for company API clients; a job-board client creates applicants with POST /jobboards/applicants.`,
    );
  }
  const company = client.company_id === null ? undefined : companyById(db, client.company_id);
  if (company === undefined)
    throw new SandboxError('invalid_token', 'The company of this API client no longer exists.');
  return company;
}
