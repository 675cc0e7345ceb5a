// Setting up a sandbox world as a manager would: companies, API clients,
// channels, entities, pools, campaign status and broadcast. Used by the
// admin routes and the demo seed.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { JOBBOARD_SCOPES, SCOPES } from '../contract/index.ts';
import { companyById } from './access.ts';
import type { CompanyRow } from './access.ts';
import type {
  CampaignPatchBody,
  ChannelBody,
  ClientBody,
  CompanyBody,
  CompanyPatchBody,
  DUPLICATE_APPLICATIONS,
  EntityBody,
  PoolBody,
} from './setup-inputs.ts';
import type { SandboxContext } from './context.ts';
import { notFound, ruleBroken } from './errors.ts';

export interface Company {
  id: number;
  name: string;
  entity_option: boolean;
  skills_option: boolean;
  sources: string[];
  restricted_tags: string[] | null;
  duplicate_applications: (typeof DUPLICATE_APPLICATIONS)[number];
}

export function createCompany(ctx: SandboxContext, input: z.input<typeof CompanyBody>): Company {
  const id = ctx.db.insert(
    'INSERT INTO companies (name, entity_option, skills_option, sources, restricted_tags, duplicate_applications, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    input.name,
    input.entity_option === true ? 1 : 0,
    input.skills_option === true ? 1 : 0,
    JSON.stringify(input.sources ?? []),
    input.restricted_tags == null ? null : JSON.stringify(input.restricted_tags),
    input.duplicate_applications ?? 'refuse',
    ctx.clock.iso(),
  );
  return {
    id,
    name: input.name,
    entity_option: input.entity_option === true,
    skills_option: input.skills_option === true,
    sources: input.sources ?? [],
    restricted_tags: input.restricted_tags ?? null,
    duplicate_applications: input.duplicate_applications ?? 'refuse',
  };
}

/** Changes a company's sandbox settings; answers the company, or undefined when there is none with this id. */
export function patchCompany(
  ctx: SandboxContext,
  id: number,
  input: z.output<typeof CompanyPatchBody>,
): Company | undefined {
  if (companyById(ctx.db, id) === undefined) return undefined;
  if (input.duplicate_applications !== undefined)
    ctx.db.run('UPDATE companies SET duplicate_applications = ? WHERE id = ?', input.duplicate_applications, id);
  if (input.sources !== undefined)
    ctx.db.run('UPDATE companies SET sources = ? WHERE id = ?', JSON.stringify(input.sources), id);
  const row = ctx.db.get<Omit<CompanyRow, 'created_at'>>(
    'SELECT id, name, entity_option, skills_option, sources, restricted_tags, duplicate_applications FROM companies WHERE id = ?',
    id,
  )!;
  return {
    ...row,
    entity_option: row.entity_option === 1,
    skills_option: row.skills_option === 1,
    sources: JSON.parse(row.sources) as string[],
    restricted_tags: row.restricted_tags === null ? null : (JSON.parse(row.restricted_tags) as string[]),
  };
}

export function createApiClient(ctx: SandboxContext, input: z.input<typeof ClientBody>) {
  const isCompany = 'company_id' in input;
  if (isCompany && companyById(ctx.db, input.company_id) === undefined) {
    throw ruleBroken('unknown_reference', 'company_id', 'no company has this id');
  }
  const scopes = input.scopes ?? (isCompany ? [...SCOPES] : [...JOBBOARD_SCOPES]);
  const privateKey = input.private_key ?? randomUUID();
  const secretKey = input.secret_key ?? randomUUID().replaceAll('-', '');
  if (ctx.db.get('SELECT 1 AS yes FROM api_clients WHERE private_key = ?', privateKey) !== undefined) {
    throw ruleBroken('invalid_request', 'private_key', 'is already used by another API client');
  }
  const id = ctx.db.insert(
    'INSERT INTO api_clients (private_key, secret_key, company_id, channel, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    privateKey,
    secretKey,
    isCompany ? input.company_id : null,
    isCompany ? null : input.channel,
    JSON.stringify(scopes),
    ctx.clock.iso(),
  );
  return {
    id,
    private_key: privateKey,
    secret_key: secretKey,
    company_id: isCompany ? input.company_id : null,
    channel: isCompany ? null : input.channel,
    scopes,
  };
}

export function createChannel(ctx: SandboxContext, input: z.input<typeof ChannelBody>) {
  const { db } = ctx;
  if (companyById(db, input.company_id) === undefined)
    throw ruleBroken('unknown_reference', 'company_id', 'no company has this id');
  if (
    input.entity_id !== undefined &&
    db.get('SELECT 1 AS yes FROM entities WHERE id = ? AND company_id = ?', input.entity_id, input.company_id) ===
      undefined
  ) {
    throw ruleBroken('unknown_reference', 'entity_id', 'no entity of this company has this id');
  }
  if (
    db.get('SELECT 1 AS yes FROM channels WHERE company_id = ? AND value = ?', input.company_id, input.value) !==
    undefined
  ) {
    throw ruleBroken('invalid_request', 'value', 'the company already has a channel of this value');
  }
  const id = db.insert(
    'INSERT INTO channels (company_id, value, name, entity_id) VALUES (?, ?, ?, ?)',
    input.company_id,
    input.value,
    input.name,
    input.entity_id ?? null,
  );
  return { id, company_id: input.company_id, value: input.value, name: input.name, entity_id: input.entity_id ?? null };
}

export function createEntity(ctx: SandboxContext, input: z.input<typeof EntityBody>) {
  const { db } = ctx;
  const company = companyById(db, input.company_id);
  if (company === undefined) throw ruleBroken('unknown_reference', 'company_id', 'no company has this id');
  if (company.entity_option !== 1)
    throw ruleBroken('invalid_request', 'company_id', 'this company does not use the Entity option');
  return db.transaction(() => {
    const id = db.insert('INSERT INTO entities (company_id, name) VALUES (?, ?)', input.company_id, input.name);
    const units = (input.units ?? []).map((name) => ({
      id: db.insert('INSERT INTO units (entity_id, company_id, name) VALUES (?, ?, ?)', id, input.company_id, name),
      name,
      entity_id: id,
    }));
    return { id, company_id: input.company_id, name: input.name, units };
  });
}

export function createPool(ctx: SandboxContext, input: z.input<typeof PoolBody>) {
  if (companyById(ctx.db, input.company_id) === undefined)
    throw ruleBroken('unknown_reference', 'company_id', 'no company has this id');
  const id = ctx.db.insert('INSERT INTO pools (company_id, name) VALUES (?, ?)', input.company_id, input.name);
  return { id, company_id: input.company_id, name: input.name };
}

/**
 * Changes a campaign as a manager would. `channels` replaces the set of
 * channel values it is broadcast on (a value the company lacks is created as
 * a company-wide channel named after it); `tags` replaces its tags.
 */
/** The channel values a campaign is broadcast on, sorted. */
export function campaignChannels(ctx: SandboxContext, id: number): string[] {
  return ctx.db
    .all<{ value: string }>(
      'SELECT ch.value FROM campaign_channels cc JOIN channels ch ON ch.id = cc.channel_id WHERE cc.campaign_id = ? ORDER BY ch.value',
      id,
    )
    .map((c) => c.value);
}

export function patchCampaign(ctx: SandboxContext, id: number, input: z.input<typeof CampaignPatchBody>): void {
  const { db } = ctx;
  const campaign = db.get<{ company_id: number; status: string }>(
    'SELECT company_id, status FROM campaigns WHERE id = ?',
    id,
  );
  if (campaign === undefined) throw notFound('The campaign with this id');
  if (input.channels !== undefined && input.add_channels !== undefined) {
    throw ruleBroken(
      'conflicting_fields',
      'add_channels',
      'cannot go with channels: channels replaces the whole set the campaign is broadcast on, add_channels adds to it. Send one of them',
    );
  }
  const now = ctx.clock.iso();
  db.transaction(() => {
    if (input.status !== undefined && input.status !== campaign.status) {
      db.run(
        `UPDATE campaigns SET status = ?, updated_at = ?, last_activation_at = CASE WHEN ? = 'online' THEN ? ELSE last_activation_at END WHERE id = ?`,
        input.status,
        now,
        input.status,
        now,
        id,
      );
    }
    const channels = input.channels ?? input.add_channels;
    if (channels !== undefined) {
      if (input.channels !== undefined) db.run('DELETE FROM campaign_channels WHERE campaign_id = ?', id);
      for (const value of new Set(channels)) {
        let channel = db.get<{ id: number }>(
          'SELECT id FROM channels WHERE company_id = ? AND value = ?',
          campaign.company_id,
          value,
        );
        channel ??= {
          id: db.insert(
            'INSERT INTO channels (company_id, value, name) VALUES (?, ?, ?)',
            campaign.company_id,
            value,
            value,
          ),
        };
        db.run(
          'INSERT INTO campaign_channels (campaign_id, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING',
          id,
          channel.id,
        );
      }
    }
    if (input.tags !== undefined) {
      db.run('DELETE FROM campaign_tags WHERE campaign_id = ?', id);
      for (const tag of new Set(input.tags))
        db.run('INSERT INTO campaign_tags (campaign_id, name) VALUES (?, ?)', id, tag);
    }
    db.run('UPDATE campaigns SET updated_at = ? WHERE id = ?', now, id);
  });
}

export function resetSandbox(ctx: SandboxContext): void {
  ctx.jobs.clear();
  ctx.db.reset();
  ctx.tokens.clear();
  ctx.rateLimiter.clear();
  ctx.traffic.clear();
  ctx.faults.set(0, {});
  ctx.clock.set(null);
}
