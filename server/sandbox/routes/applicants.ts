// GET /applicants, GET /applicants/:id (id or email), POST /applicants,
// POST /jobboards/applicants.
import type { Request, Response, Router } from 'express';
import {
  CreateApplicantBody,
  CreateJobboardApplicantBody,
  GetApplicantQuery,
  ListApplicantsQuery,
} from '../../contract/index.ts';
import { companyById, companyOfClient, isJobboard, ownRow, ownScope } from '../access.ts';
import type { SandboxContext } from '../context.ts';
import { createApplicantWithApplications } from '../create.ts';
import { SandboxError, notFound, ruleBroken } from '../errors.ts';
import { callerOf, listRoute, originOf, parseBody, parseQuery, requireScope } from '../http.ts';
import { ListQuery } from '../list-query.ts';
import type { ListSource } from '../list-query.ts';
import { renderApplicants } from '../render.ts';
import type { ApplicantRow } from '../render.ts';
import type { RecordingRouter } from '../route-table.ts';

const APPLICANT_LIST: ListSource<ListApplicantsQuery['order']> = {
  count: 'SELECT COUNT(*) AS n FROM applicants p',
  select: 'SELECT p.* FROM applicants p',
  id: 'p.id',
  orderBy: { created_at: 'p.created_at' },
};

export function applicantRoutes(ctx: SandboxContext, router: RecordingRouter): Router {
  const { db } = ctx;

  listRoute(router, '/applicants', 'applicants_read', ListApplicantsQuery, (q, client, req) => {
    const list = new ListQuery(APPLICANT_LIST, ownScope(client, 'p'));
    if (q.keywords !== undefined && q.keywords.trim() !== '') {
      // Every word must appear in first_name, last_name or email (case-insensitive substring).
      for (const word of q.keywords.trim().split(/\s+/).slice(0, 10)) {
        const like = `%${word.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
        list.where(
          "(p.first_name LIKE ? ESCAPE '\\' OR p.last_name LIKE ? ESCAPE '\\' OR p.email LIKE ? ESCAPE '\\')",
          like,
          like,
          like,
        );
      }
    }
    if (q.is_partner_newsletter_active !== undefined)
      list.where('p.is_partner_newsletter_active = ?', q.is_partner_newsletter_active ? 1 : 0);
    if (q.is_campaign_alert_active !== undefined)
      list.where('p.is_campaign_alert_active = ?', q.is_campaign_alert_active ? 1 : 0);
    const total = list.count(db);
    const rows = list.page<ApplicantRow>(db, q);
    return { items: renderApplicants(db, rows, q.embed ?? [], originOf(req)), total };
  });

  router.get('/applicants/:id', (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'applicants_read');
    const key = String(req.params.id);
    const q = parseQuery(GetApplicantQuery, req.query, 'GET /applicants/:id');
    // The path parameter is the applicant's id or its email address.
    const row = /^[1-9][0-9]{0,14}$/.test(key)
      ? ownRow<ApplicantRow>(db, client, 'applicants', 'r.id = ?', Number(key))
      : ownRow<ApplicantRow>(db, client, 'applicants', 'r.email = ? COLLATE NOCASE', key);
    if (row === undefined) throw notFound('The applicant with this id or email');
    res.json(renderApplicants(db, [row], q.embed ?? [], originOf(req))[0]);
  });

  router.post('/applicants', async (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'applicants_write');
    const company = companyOfClient(db, client, 'POST /applicants');
    const body = parseBody(CreateApplicantBody, req.body, 'POST /applicants');
    await createAndAnswer(ctx, req, res, { company, client, input: body.applicant });
  });

  router.post('/jobboards/applicants', async (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'applicants_write');
    if (!isJobboard(client)) {
      throw new SandboxError(
        'wrong_client_kind',
        'POST /jobboards/applicants is for job-board API clients; a company client uses POST /applicants.',
      );
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
      throw ruleBroken(
        'unknown_reference',
        'company_id',
        `company ${body.company_id} broadcasts no campaign on the channel "${client.channel}"`,
      );
    }
    await createAndAnswer(ctx, req, res, { company, client, input: body.applicant });
  });

  return router.express;
}

/** Both create routes: creates the applicant with its applications, and answers 201 with it and every embed. */
async function createAndAnswer(
  ctx: SandboxContext,
  req: Request,
  res: Response,
  args: Omit<Parameters<typeof createApplicantWithApplications>[1], 'origin'>,
): Promise<void> {
  const origin = originOf(req);
  const created = await createApplicantWithApplications(ctx, { ...args, origin });
  const row = ctx.db.get<ApplicantRow>('SELECT * FROM applicants WHERE id = ?', created.applicantId)!;
  res.status(201).json(renderApplicants(ctx.db, [row], ['address', 'applications', 'pools'], origin)[0]);
}
