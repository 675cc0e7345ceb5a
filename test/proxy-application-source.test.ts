// The application's source (APPLICATION_SOURCE, by default the channel)
// against the sandbox, over real HTTP, with the outbox in SQLite and in
// PostgreSQL, the sandbox taking duplicate applications (so only the proxy
// keeps an application from going twice): a company listing the source gets
// it; a company refusing it gets the application once, without it, with a
// note naming the board, and the next ones without it from the first send;
// a failing service (5xx, timeout) never triggers the re-send without source.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin } from '../server/test/sandbox-admin.ts';
import {
  apply,
  assertCreatedOnceAtTheWire,
  deliveredRow,
  fetch,
  runOutboxCommand,
  startApplyWorld,
  validFields,
} from './proxy-apply.test-support.ts';
import type { ApplyWorld, WorldOptions } from './proxy-apply.test-support.ts';
import { SQLITE_STORE, postgresStore } from './proxy-stores.ts';
import type { ScenarioStore } from './proxy-stores.ts';

const BOARD = 'jobboard_demo';

interface WireCreate {
  seq: number;
  status: number | null;
  path: string;
}

/** The open campaigns of the board, one per company: [campaign, company]. */
function campaignPerCompany(world: ApplyWorld): { campaignId: number; companyId: number }[] {
  const seen = new Map<number, number>();
  for (const id of world.openCampaignIds) {
    const companyId = world.sandbox.context.db.get<{ company_id: number }>(
      'SELECT company_id FROM campaigns WHERE id = ?',
      id,
    )!.company_id;
    if (!seen.has(companyId)) seen.set(companyId, id);
  }
  return [...seen].map(([companyId, campaignId]) => ({ campaignId, companyId }));
}

function setSources(world: ApplyWorld, companyId: number, sources: string[]): void {
  world.sandbox.context.db.run('UPDATE companies SET sources = ? WHERE id = ?', JSON.stringify(sources), companyId);
}

/** The application the sandbox holds for a delivered row: its source and its comments, oldest first. */
function upstreamApplication(world: ApplyWorld, applicationId: number): { source: string | null; comments: string[] } {
  const { db } = world.sandbox.context;
  const { source } = db.get<{ source: string | null }>('SELECT source FROM applications WHERE id = ?', applicationId)!;
  const comments = db
    .all<{ content: string }>('SELECT content FROM comments WHERE application_id = ? ORDER BY id', applicationId)
    .map((c) => c.content);
  return { source, comments };
}

async function createsOf(world: ApplyWorld, email: string): Promise<WireCreate[]> {
  return (await admin(world.sandbox, 'GET', `/creates?email=${encodeURIComponent(email)}`)) as WireCreate[];
}

async function refusedCount(world: ApplyWorld, companyId: number): Promise<number> {
  const text = await (await fetch(world.metricsUrl)).text();
  const line = new RegExp(`^application_source_refused_total\\{company_id="${companyId}"\\} (\\d+)$`, 'm').exec(text);
  return line === null ? 0 : Number(line[1]);
}

/** `outbox list` as an operator runs it beside the proxy (DATABASE_URL as the proxy has it). */
async function outboxList(world: ApplyWorld, store: ScenarioStore): Promise<string> {
  const before = process.env.DATABASE_URL;
  if (store.env.DATABASE_URL !== undefined) process.env.DATABASE_URL = store.env.DATABASE_URL;
  try {
    return await runOutboxCommand(['list', '--data-dir', world.config.dataDir]);
  } finally {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
  }
}

async function startWorld(store: ScenarioStore, options: WorldOptions = {}): Promise<ApplyWorld> {
  return startApplyWorld({ duplicates: 'accept', ...options, env: { ...store.env, ...options.env } });
}

for (const store of [SQLITE_STORE, await postgresStore()]) {
  describe(`the application source (${store.name}, sandbox taking duplicates)`, { skip: store.skip }, () => {
    let world: ApplyWorld;
    let accepting: { campaignId: number; companyId: number };
    let refusing: { campaignId: number; companyId: number };
    before(async () => {
      // These tests read the first attempt's own answer (201), refused then re-sent: a busy machine must not turn it into 202.
      world = await startWorld(store, { env: { DELIVERY_DEADLINE_MS: '20000' } });
      [accepting, refusing] = campaignPerCompany(world) as [typeof accepting, typeof refusing];
      assert.ok(refusing !== undefined, 'the demo board has offers of two companies');
      setSources(world, accepting.companyId, ['carriere', BOARD]);
      setSources(world, refusing.companyId, ['carriere']);
    });
    after(async () => {
      await world.close();
    });

    it('sends the channel as the source to a company that lists it, with only the cover letter as comment', async () => {
      const fields = validFields(accepting.campaignId);
      const answer = await apply(world.proxyUrl, { fields });
      assert.equal(answer.status, 201);
      const row = await deliveredRow(world, answer.body.reference);
      assert.deepEqual(upstreamApplication(world, row.upstream_application_id!), {
        source: BOARD,
        comments: [fields.cover_letter],
      });
      assert.equal(row.source_dropped, 0);
      assert.deepEqual(
        (await createsOf(world, fields.email)).map((c) => c.status),
        [201],
      );
      assert.equal(await refusedCount(world, accepting.companyId), 0);
    });

    it('to a company refusing the source: created once, without source, the note naming the board; counted and listed', async (t) => {
      const fields = validFields(refusing.campaignId);
      const answer = await apply(world.proxyUrl, { fields });
      assert.equal(answer.status, 201, answer.text);
      const row = await deliveredRow(world, answer.body.reference);
      assert.equal(row.attempts, 1, 'the re-send is part of the first attempt');
      assert.equal(row.source_dropped, 1);
      const { source, comments } = upstreamApplication(world, row.upstream_application_id!);
      assert.equal(source, null);
      assert.equal(comments[0], fields.cover_letter);
      assert.match(comments[1] ?? '', new RegExp(`job board ${BOARD}\\b.*"${BOARD}" is not in your sources`));
      // The refused send (422, nothing created) then the one without source.
      assert.deepEqual(
        (await createsOf(world, fields.email)).map((c) => c.status),
        [422, 201],
      );
      const wire = await assertCreatedOnceAtTheWire(world.sandbox, fields.email, refusing.campaignId);
      t.diagnostic(`at the wire: ${wire.requests} create requests, ${wire.succeeded} created an application`);
      assert.equal(await refusedCount(world, refusing.companyId), 1);
      assert.equal(await world.applications.outbox.sourceRefused(refusing.companyId, BOARD), true);

      const listed = (await outboxList(world, store)).split('\n');
      assert.match(listed[0] ?? '', /\bSOURCE\b/);
      const line = listed.find((l) => l.startsWith(String(answer.body.reference)));
      assert.match(line ?? '', /\bdelivered\b.*\bdropped\b/, 'outbox list marks the row whose source was dropped');
      assert.doesNotMatch(
        listed.find((l) => l.includes(' delivered ') && !l.startsWith(String(answer.body.reference))) ?? '',
        /\bdropped\b/,
      );
    });

    it('within the day, sends the next application to that company without source from the first send, counting no new refusal', async () => {
      const fields = validFields(refusing.campaignId);
      const answer = await apply(world.proxyUrl, { fields });
      assert.equal(answer.status, 201);
      const row = await deliveredRow(world, answer.body.reference);
      assert.equal(row.source_dropped, 1);
      assert.deepEqual(
        (await createsOf(world, fields.email)).map((c) => c.status),
        [201],
        'one send, no refusal first',
      );
      const { source, comments } = upstreamApplication(world, row.upstream_application_id!);
      assert.equal(source, null);
      assert.match(comments[1] ?? '', new RegExp(`job board ${BOARD}\\b`));
      assert.equal(await refusedCount(world, refusing.companyId), 1, 'still the one refusal');
      // The company that lists the source still gets it.
      const other = validFields(accepting.campaignId);
      const otherRow = await deliveredRow(world, (await apply(world.proxyUrl, { fields: other })).body.reference);
      assert.equal(upstreamApplication(world, otherRow.upstream_application_id!).source, BOARD);
    });
  });
}

describe('the application source when the service fails (SQLite, sandbox taking duplicates)', () => {
  let world: ApplyWorld;
  let company: { campaignId: number; companyId: number };
  before(async () => {
    // The retry comes after the slow service has acted (backoff 1-2 s > the 1.5 s delay), so it finds the application.
    world = await startWorld(SQLITE_STORE, {
      delivery: { upstreamTimeoutMs: 1_000, baseBackoffMs: 2_000, maxBackoffMs: 4_000 },
    });
    company = campaignPerCompany(world)[0]!;
    setSources(world, company.companyId, [BOARD]);
  });
  after(async () => {
    await world.close();
  });

  // Neither failure says whether the service refused the source: the application keeps it, and no refusal is remembered.
  const failures = [
    {
      name: 'a 503 on the first send is no refusal: the retry sends the source again, once',
      fault: { count: 1, status: 503 },
      outcome: 'created_applicant',
    },
    {
      name: 'a timeout on the first send is no refusal: nothing is re-sent without source, the retry finds what the service created',
      fault: { count: 1, delay_ms: 1_500 },
      outcome: 'found_delivered',
    },
  ];
  for (const { name, fault, outcome } of failures) {
    it(name, async (t) => {
      await admin(world.sandbox, 'POST', '/faults', fault);
      const fields = validFields(company.campaignId);
      const answer = await apply(world.proxyUrl, { fields });
      assert.equal(answer.status, 202);
      const row = await deliveredRow(world, answer.body.reference);
      assert.equal(row.outcome, outcome);
      assert.equal(row.source_dropped, 0);
      assert.equal(upstreamApplication(world, row.upstream_application_id!).source, BOARD);
      const wire = await assertCreatedOnceAtTheWire(world.sandbox, fields.email, company.campaignId);
      t.diagnostic(`at the wire: ${wire.requests} create requests, ${wire.succeeded} created an application`);
      assert.equal(await refusedCount(world, company.companyId), 0);
      assert.equal(await world.applications.outbox.sourceRefused(company.companyId, BOARD), false);
    });
  }
});
