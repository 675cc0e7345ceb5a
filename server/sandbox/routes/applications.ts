// GET /applications, GET /applications/:id, POST /applications.
import type { Router } from 'express';
import { CreateApplicationBody, GetApplicationQuery, ListApplicationsQuery } from '../../contract/index.ts';
import { companyById, isJobboard, ownRow, ownScope } from '../access.ts';
import type { CompanyRow } from '../access.ts';
import type { SandboxContext } from '../context.ts';
import { checkComments, checkResume, insertApplication } from '../create.ts';
import { notFound, ruleBroken } from '../errors.ts';
import { callerOf, listRoute, originOf, parseBody, parseId, parseQuery, requireScope } from '../http.ts';
import { ListQuery } from '../list-query.ts';
import type { ListSource } from '../list-query.ts';
import { renderApplications } from '../render.ts';
import type { ApplicationRow } from '../render.ts';
import type { RecordingRouter } from '../route-table.ts';

const APPLICATION_LIST: ListSource<ListApplicationsQuery['order']> = {
  count: 'SELECT COUNT(*) AS n FROM applications a',
  select: 'SELECT a.* FROM applications a',
  id: 'a.id',
  orderBy: { created_at: 'a.created_at' },
};

// Counting uses the status_changed_at range index. The page must not: "+" keeps SQLite from
// using that index, so it walks (company_id, status, created_at) newest first, with no sort.
const STATUS_SINCE = { count: 'a.status_changed_at >= ?', page: '+a.status_changed_at >= ?' };
const STATUS_UNTIL = { count: 'a.status_changed_at <= ?', page: '+a.status_changed_at <= ?' };

export function applicationRoutes(ctx: SandboxContext, router: RecordingRouter): Router {
  const { db } = ctx;

  listRoute(router, '/applications', 'applications_read', ListApplicationsQuery, (q, client, req) => {
    const list = new ListQuery(APPLICATION_LIST, ownScope(client, 'a'));
    if (q.campaign_id !== undefined) list.where('a.campaign_id = ?', q.campaign_id);
    if (q.is_complete !== undefined) list.where('a.is_complete = ?', q.is_complete ? 1 : 0);
    if (q.source !== undefined) list.where('a.source = ?', q.source);
    if (q.status?.value !== undefined) {
      list.where('a.status = ?', q.status.value);
      // status[date]: the current status was set within [gte, lte] (whole days, UTC).
      if (q.status.date?.gte !== undefined) list.where(STATUS_SINCE, q.status.date.gte);
      if (q.status.date?.lte !== undefined) list.where(STATUS_UNTIL, `${q.status.date.lte}T23:59:59.999Z`);
    }
    // Without other filters, a company's total comes from the trigger-kept counts.
    const onlyCompanyAndStatus =
      !isJobboard(client) &&
      q.campaign_id === undefined &&
      q.is_complete === undefined &&
      q.source === undefined &&
      q.status?.date === undefined;
    const total = onlyCompanyAndStatus
      ? q.status?.value !== undefined
        ? (db.get<{ n: number }>(
            'SELECT n FROM application_counts WHERE company_id = ? AND status = ?',
            client.company_id ?? -1,
            q.status.value,
          )?.n ?? 0)
        : (db.get<{ n: number }>(
            'SELECT COALESCE(SUM(n), 0) AS n FROM application_counts WHERE company_id = ?',
            client.company_id ?? -1,
          )?.n ?? 0)
      : list.count(db);
    const rows = list.page<ApplicationRow>(db, q);
    return { items: renderApplications(db, rows, q.embed ?? [], originOf(req)), total };
  });

  router.get('/applications/:id', (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'applications_read');
    const id = parseId(req.params.id, 'application');
    const q = parseQuery(GetApplicationQuery, req.query, 'GET /applications/:id');
    const row = ownRow<ApplicationRow>(db, client, 'applications', 'r.id = ?', id);
    if (row === undefined) throw notFound('The application with this id');
    res.json(renderApplications(db, [row], q.embed ?? [], originOf(req))[0]);
  });

  router.post('/applications', async (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'applications_write');
    const body = parseBody(CreateApplicationBody, req.body, 'POST /applications');
    const fields = body.application ?? {};
    const resume = await checkResume(fields.resume, 'application.resume');
    const comments = await checkComments(fields.comments, 'application.comments');

    const created = db.transaction(() => {
      const company = companyOfCampaign(ctx, client, body.campaign_id);
      const applicant =
        body.applicant_id !== undefined
          ? db.get<{ id: number }>(
              'SELECT id FROM applicants WHERE id = ? AND company_id = ?',
              body.applicant_id,
              company.id,
            )
          : db.get<{ id: number }>(
              'SELECT id FROM applicants WHERE email = ? COLLATE NOCASE AND company_id = ?',
              body.applicant_email!,
              company.id,
            );
      if (applicant === undefined) {
        const field = body.applicant_id !== undefined ? 'applicant_id' : 'applicant_email';
        throw ruleBroken(
          'unknown_reference',
          field,
          `no applicant ${String(body.applicant_id ?? body.applicant_email)} in company ${company.id}`,
        );
      }
      return insertApplication(ctx, {
        company,
        client,
        campaignId: body.campaign_id,
        campaignField: 'campaign_id',
        applicantId: applicant.id,
        fields,
        fieldsPath: 'application',
        comments,
        resume,
      });
    });
    ctx.jobs.add(...created.jobs);
    const row = db.get<ApplicationRow>('SELECT * FROM applications WHERE id = ?', created.id)!;
    res.status(201).json(renderApplications(db, [row], ['comments', 'tags'], originOf(req))[0]);
  });

  return router.express;
}

/**
 * The company an application goes to: the client's own, or for a job-board
 * client the company of the campaign (whose broadcast is checked later).
 */
function companyOfCampaign(ctx: SandboxContext, client: ReturnType<typeof callerOf>, campaignId: number): CompanyRow {
  const companyId = isJobboard(client)
    ? ctx.db.get<{ company_id: number }>('SELECT company_id FROM campaigns WHERE id = ?', campaignId)?.company_id
    : client.company_id;
  const company = companyId === undefined || companyId === null ? undefined : companyById(ctx.db, companyId);
  if (company === undefined)
    throw ruleBroken('unknown_reference', 'campaign_id', `campaign ${campaignId} does not exist`);
  return company;
}
