// The admin surface (/_sandbox/...), served only when the sandbox is started
// with admin on: tests, demos and partners set up any situation with it.
// JSON in and out; errors in the API's error shape.
import type { Router } from 'express';
import { z } from 'zod';
import type { SandboxContext } from './context.ts';
import { listEmails } from './emails.ts';
import { notFound } from './errors.ts';
import { parseBody, parseId } from './http.ts';
import type { RecordingRouter } from './route-table.ts';
import { seedDemo } from './seed.ts';
import {
  campaignChannels,
  createChannel,
  createApiClient,
  createCompany,
  createEntity,
  createPool,
  patchCampaign,
  patchCompany,
  resetSandbox,
} from './setup.ts';
import {
  CampaignPatchBody,
  ChannelBody,
  ClientBody,
  CompanyBody,
  CompanyPatchBody,
  EntityBody,
  JobBoardClientBody,
  PoolBody,
} from './setup-inputs.ts';
import { recordStatusChange } from './status.ts';

const ResetBody = z.strictObject({ seed: z.literal('demo').optional() });
const StatusBody = z.strictObject({
  value: z.string().min(1).max(100),
  at: z.iso.datetime({ offset: true }).optional(),
});
const ClockBody = z.strictObject({ now: z.iso.datetime({ offset: true }).nullable() });
const FaultBody = z.strictObject({
  count: z.int().min(0).max(1_000_000),
  status: z.int().min(400).max(599).optional(),
  delay_ms: z.int().min(0).max(120_000).optional(),
  drop: z.boolean().optional(),
  every: z.int().min(1).max(1_000_000).optional(),
});

/** What a change of a campaign's channels did, said in the answer: `channels` replaces the set, which surprises whoever meant to add one. */
function channelsNote(
  body: { channels?: string[] | undefined; add_channels?: string[] | undefined },
  before: string[],
  after: string[],
): { note?: string } {
  const list = (values: string[]) => (values.length === 0 ? 'none' : values.join(', '));
  if (body.channels !== undefined) {
    return {
      note: `channels replaced the whole set: broadcast on ${list(after)} (was ${list(before)}). To add channels and keep the others, send add_channels.`,
    };
  }
  if (body.add_channels !== undefined)
    return { note: `add_channels added to the set: broadcast on ${list(after)} (was ${list(before)}).` };
  return {};
}

export function adminRoutes(ctx: SandboxContext, router: RecordingRouter): Router {
  const { db } = ctx;

  router.post('/reset', (req, res) => {
    const body = parseBody(ResetBody, req.body ?? {}, 'POST /_sandbox/reset');
    resetSandbox(ctx);
    const demo = body.seed === 'demo' ? seedDemo(ctx) : undefined;
    res.json({ reset: true, ...(demo === undefined ? {} : { demo_keys: demo }) });
  });
  router.post('/companies', (req, res) => {
    res.status(201).json(createCompany(ctx, parseBody(CompanyBody, req.body, 'POST /_sandbox/companies')));
  });
  router.patch('/companies/:id', (req, res) => {
    const id = parseId(req.params.id, 'company');
    const company = patchCompany(ctx, id, parseBody(CompanyPatchBody, req.body, 'PATCH /_sandbox/companies/:id'));
    if (company === undefined) throw notFound('The company with this id');
    res.json(company);
  });
  router.get('/stats', (_req, res) => {
    res.json(ctx.traffic.stats());
  });
  router.get('/creates', (req, res) => {
    const email = typeof req.query.email === 'string' ? req.query.email : undefined;
    res.json(ctx.traffic.creates(email));
  });
  router.post('/clients', (req, res) => {
    // A body naming a channel is read as a job-board client, so its mistakes are reported against that
    // shape (the union alone answered "company_id expected; channel is not a known field" for a bad scope).
    const body: unknown = req.body;
    const schema = body !== null && typeof body === 'object' && 'channel' in body ? JobBoardClientBody : ClientBody;
    res.status(201).json(createApiClient(ctx, parseBody(schema, body, 'POST /_sandbox/clients')));
  });
  router.post('/channels', (req, res) => {
    res.status(201).json(createChannel(ctx, parseBody(ChannelBody, req.body, 'POST /_sandbox/channels')));
  });
  router.post('/entities', (req, res) => {
    res.status(201).json(createEntity(ctx, parseBody(EntityBody, req.body, 'POST /_sandbox/entities')));
  });
  router.post('/pools', (req, res) => {
    res.status(201).json(createPool(ctx, parseBody(PoolBody, req.body, 'POST /_sandbox/pools')));
  });
  router.patch('/campaigns/:id', (req, res) => {
    const id = parseId(req.params.id, 'campaign');
    const body = parseBody(CampaignPatchBody, req.body, 'PATCH /_sandbox/campaigns/:id');
    const before = campaignChannels(ctx, id);
    patchCampaign(ctx, id, body);
    const row = db.get<{ id: number; status: string; last_activation_at: string | null }>(
      'SELECT id, status, last_activation_at FROM campaigns WHERE id = ?',
      id,
    )!;
    const channels = campaignChannels(ctx, id);
    const tags = db.all<{ name: string }>('SELECT name FROM campaign_tags WHERE campaign_id = ? ORDER BY name', id);
    res.json({ ...row, channels, tags: tags.map((t) => t.name), ...channelsNote(body, before, channels) });
  });
  router.put('/applications/:id/status', (req, res) => {
    const id = parseId(req.params.id, 'application');
    const body = parseBody(StatusBody, req.body, 'PUT /_sandbox/applications/:id/status');
    if (db.get('SELECT 1 AS yes FROM applications WHERE id = ?', id) === undefined)
      throw notFound('The application with this id');
    const at = body.at === undefined ? ctx.clock.iso() : new Date(body.at).toISOString();
    db.transaction(() => recordStatusChange(db, id, body.value, at));
    res.json(db.get('SELECT id, status, status_changed_at FROM applications WHERE id = ?', id));
  });
  router.put('/clock', (req, res) => {
    const body = parseBody(ClockBody, req.body, 'PUT /_sandbox/clock');
    ctx.clock.set(body.now === null ? null : new Date(body.now));
    res.json({ now: ctx.clock.iso(), real_time: !ctx.clock.shifted });
  });
  router.get('/clock', (_req, res) => {
    res.json({ now: ctx.clock.iso(), real_time: !ctx.clock.shifted });
  });
  router.get('/emails', (req, res) => {
    const to = typeof req.query.to === 'string' && req.query.to !== '' ? req.query.to : undefined;
    res.json(listEmails(db, to));
  });
  router.post('/faults', (req, res) => {
    const body = parseBody(FaultBody, req.body, 'POST /_sandbox/faults');
    const { count, every, ...fault } = body;
    ctx.faults.set(count, fault, every);
    res.json({ remaining: ctx.faults.remaining, ...fault, ...(every === undefined ? {} : { every }) });
  });
  /** Waits until every queued file job has run (tests use it instead of polling). */
  router.post('/jobs/drain', async (_req, res) => {
    await ctx.jobs.idle();
    res.json({ pending: ctx.jobs.pending });
  });
  return router.express;
}
