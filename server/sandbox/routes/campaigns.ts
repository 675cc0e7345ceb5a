// GET /campaigns, GET /campaigns/:id, POST /campaigns.
import type { Router } from 'express';
import { CreateCampaignBody, GetCampaignQuery, ListCampaignsQuery } from '../../contract/index.ts';
import { campaignScope, companyOfClient, visibleCampaign } from '../access.ts';
import type { SandboxContext } from '../context.ts';
import { notFound, ruleBroken } from '../errors.ts';
import { callerOf, listRoute, parseBody, parseId, parseQuery, requireScope } from '../http.ts';
import { ListQuery } from '../list-query.ts';
import type { ListSource } from '../list-query.ts';
import { CAMPAIGN_SELECT, renderCampaigns } from '../render.ts';
import type { CampaignRow } from '../render.ts';
import type { RecordingRouter } from '../route-table.ts';

/** Status of a campaign created through the API: managers publish it (our decision). */
export const NEW_CAMPAIGN_STATUS = 'draft';

const CAMPAIGN_LIST: ListSource<ListCampaignsQuery['order']> = {
  count: 'SELECT COUNT(*) AS n FROM campaigns c',
  select: CAMPAIGN_SELECT,
  id: 'c.id',
  orderBy: { created_at: 'c.created_at', last_activation_at: 'c.last_activation_at', name: 'c.name COLLATE NOCASE' },
};

export function campaignRoutes(ctx: SandboxContext, router: RecordingRouter): Router {
  const { db } = ctx;

  listRoute(router, '/campaigns', 'campaigns_read', ListCampaignsQuery, (q, client) => {
    const list = new ListQuery(CAMPAIGN_LIST, campaignScope(client));
    if (q.status !== undefined && q.status.length > 0) {
      list.where('c.status IN (SELECT value FROM json_each(?))', JSON.stringify(q.status));
    }
    if (q.channels !== undefined && q.channels.length > 0) {
      // EXISTS looks up each campaign's own channels (by the primary key); the former
      // `c.id IN (correlated subquery)` walked every broadcast row per campaign, minutes at 50,000.
      list.where(
        `EXISTS (SELECT 1 FROM campaign_channels cc JOIN channels ch ON ch.id = cc.channel_id
                 WHERE cc.campaign_id = c.id AND ch.company_id = c.company_id AND ch.value IN (SELECT value FROM json_each(?)))`,
        JSON.stringify(q.channels),
      );
    }
    const total = list.count(db);
    const rows = list.page<CampaignRow>(db, q);
    return { items: renderCampaigns(db, rows, q.embed ?? []), total };
  });

  router.get('/campaigns/:id', (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'campaigns_read');
    const id = parseId(req.params.id, 'campaign');
    const q = parseQuery(GetCampaignQuery, req.query, 'GET /campaigns/:id');
    const row = visibleCampaign(db, client, id);
    if (row === undefined) throw notFound('The campaign with this id');
    res.json(renderCampaigns(db, [row], q.embed ?? [])[0]);
  });

  router.post('/campaigns', (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'campaigns_write');
    const company = companyOfClient(db, client, 'POST /campaigns');
    const { campaign } = parseBody(CreateCampaignBody, req.body, 'POST /campaigns');
    // Rule (API rules: Resources): unit_id is required when the company uses the Entity option.
    if (campaign.unit_id === undefined && company.entity_option === 1) {
      throw ruleBroken(
        'unit_required',
        'campaign.unit_id',
        'is required because the company uses the Entity option; list units with the entities',
      );
    }
    if (
      campaign.unit_id !== undefined &&
      db.get('SELECT 1 AS yes FROM units WHERE id = ? AND company_id = ?', campaign.unit_id, company.id) === undefined
    ) {
      throw ruleBroken(
        'unknown_reference',
        'campaign.unit_id',
        `unit ${campaign.unit_id} does not exist in company ${company.id}`,
      );
    }
    const now = ctx.clock.iso();
    const id = db.insert(
      `INSERT INTO campaigns (company_id, manage_name, name, description, profile, job_type, contract_duration, job_start_date, date_end,
         working_time, salary_min, salary_max, unit_id, status, address, created_at, updated_at, last_activation_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      company.id,
      campaign.manage_name,
      campaign.name ?? null,
      campaign.description ?? null,
      campaign.profile ?? null,
      campaign.job_type ?? null,
      campaign.contract_duration ?? null,
      campaign.job_start_date ?? null,
      campaign.date_end ?? null,
      campaign.working_time ?? null,
      campaign.salary_min ?? null,
      campaign.salary_max ?? null,
      campaign.unit_id ?? null,
      NEW_CAMPAIGN_STATUS,
      campaign.address === undefined ? null : JSON.stringify(campaign.address),
      now,
      now,
    );
    const row = db.get<CampaignRow>(`${CAMPAIGN_SELECT} WHERE c.id = ?`, id)!;
    res.status(201).json(renderCampaigns(db, [row], ['address', 'channels', 'entity', 'tags', 'unit'])[0]);
  });

  return router.express;
}
