// GET /applicants, GET /applicants/:id (id or email), POST /applicants,
// POST /jobboards/applicants.
import { Router } from 'express';
import { CreateApplicantBody, CreateJobboardApplicantBody, GetApplicantQuery, ListApplicantsQuery } from '../../contract/index.ts';
import { companyById, companyOfClient, isJobboard, ownScope } from '../access.ts';
import type { SandboxContext } from '../context.ts';
import { createApplicantWithApplications } from '../create.ts';
import { SandboxError, notFound, ruleBroken } from '../errors.ts';
import { callerOf, originOf, parseBody, parseQuery, requireScope, sendList } from '../http.ts';
import { renderApplicants } from '../render.ts';
import type { ApplicantRow } from '../render.ts';

export function applicantRoutes(ctx: SandboxContext): Router {
  const router = Router();
  const { db } = ctx;

  router.get('/applicants', (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'applicants_read');
    const q = parseQuery(ListApplicantsQuery, req.query, 'GET /applicants');
    const scope = ownScope(client, 'p');
    const where = [scope.sql];
    const params: (string | number)[] = [...scope.params];
    if (q.keywords !== undefined && q.keywords.trim() !== '') {
      // Every word must appear in first_name, last_name or email (case-insensitive substring).
      for (const word of q.keywords.trim().split(/\s+/).slice(0, 10)) {
        where.push("(p.first_name LIKE ? ESCAPE '\\' OR p.last_name LIKE ? ESCAPE '\\' OR p.email LIKE ? ESCAPE '\\')");
        const like = `%${word.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
        params.push(like, like, like);
      }
    }
    if (q.is_partner_newsletter_active !== undefined) {
      where.push('p.is_partner_newsletter_active = ?');
      params.push(q.is_partner_newsletter_active ? 1 : 0);
    }
    if (q.is_campaign_alert_active !== undefined) {
      where.push('p.is_campaign_alert_active = ?');
      params.push(q.is_campaign_alert_active ? 1 : 0);
    }
    const whereSql = where.join(' AND ');
    const total = db.count(`SELECT COUNT(*) AS n FROM applicants p WHERE ${whereSql}`, ...params);
    const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
    const rows = db.all<ApplicantRow>(
      `SELECT p.* FROM applicants p WHERE ${whereSql} ORDER BY p.created_at ${dir}, p.id ${dir} LIMIT ? OFFSET ?`,
      ...params,
      q.per_page,
      (q.page - 1) * q.per_page,
    );
    sendList(res, renderApplicants(db, rows, q.embed ?? [], originOf(req)), total, q.page, q.per_page);
  });

  router.get('/applicants/:id', (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'applicants_read');
    const key = String(req.params.id);
    const q = parseQuery(GetApplicantQuery, req.query, 'GET /applicants/:id');
    const scope = ownScope(client, 'p');
    // The path parameter is the applicant's id or its email address.
    const row = /^[1-9][0-9]{0,14}$/.test(key)
      ? db.get<ApplicantRow>(`SELECT p.* FROM applicants p WHERE p.id = ? AND ${scope.sql}`, Number(key), ...scope.params)
      : db.get<ApplicantRow>(`SELECT p.* FROM applicants p WHERE p.email = ? COLLATE NOCASE AND ${scope.sql}`, key, ...scope.params);
    if (row === undefined) throw notFound(`Applicant "${key}"`);
    res.json(renderApplicants(db, [row], q.embed ?? [], originOf(req))[0]);
  });

  router.post('/applicants', async (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'applicants_write');
    const company = companyOfClient(db, client, 'POST /applicants');
    const body = parseBody(CreateApplicantBody, req.body, 'POST /applicants');
    const created = await createApplicantWithApplications(ctx, { company, client, input: body.applicant, origin: originOf(req) });
    res.status(201).json(createdApplicant(ctx, created.applicantId, originOf(req)));
  });

  router.post('/jobboards/applicants', async (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'applicants_write');
    if (!isJobboard(client)) {
      throw new SandboxError('wrong_client_kind', 'POST /jobboards/applicants is for job-board API clients; a company client uses POST /applicants.');
    }
    const body = parseBody(CreateJobboardApplicantBody, req.body, 'POST /jobboards/applicants');
    const company = companyById(db, body.company_id);
    const broadcasts =
      company !== undefined &&
      db.get(
        `SELECT 1 AS yes FROM campaign_channels cc JOIN channels ch ON ch.id = cc.channel_id WHERE ch.company_id = ? AND ch.value = ? LIMIT 1`,
        company.id,
        client.channel,
      ) !== undefined;
    if (company === undefined || !broadcasts) {
      throw ruleBroken('unknown_reference', 'company_id', `company ${body.company_id} broadcasts no campaign on the channel "${client.channel}"`);
    }
    const created = await createApplicantWithApplications(ctx, { company, client, input: body.applicant, origin: originOf(req) });
    res.status(201).json(createdApplicant(ctx, created.applicantId, originOf(req)));
  });

  return router;
}

function createdApplicant(ctx: SandboxContext, id: number, origin: string) {
  const row = ctx.db.get<ApplicantRow>('SELECT * FROM applicants WHERE id = ?', id)!;
  return renderApplicants(ctx.db, [row], ['address', 'applications', 'pools'], origin)[0]!;
}
