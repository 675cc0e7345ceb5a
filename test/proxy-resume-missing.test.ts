// A queued application whose resume is taken away from outside the proxy (a
// file deleted from DATA_DIR/resumes, rows deleted from resume_chunks): the
// next attempt names it resume_missing and dead-letters it at once, with an
// error log line and its own metric, instead of retrying it for ever as a
// connection failure.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { metricValue } from './cli-processes.ts';
import { apply, fetch, runOutboxCommand, startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { SQLITE_STORE, postgresStore } from './proxy-stores.ts';
import type { ScenarioStore } from './proxy-stores.ts';

const HOUR = 60 * 60 * 1000;

/** Takes the stored resume of `reference` away, as a hand outside the proxy would. */
async function loseResume(store: ScenarioStore, world: ApplyWorld, reference: string): Promise<void> {
  if (store.env.DATABASE_URL === undefined) {
    rmSync(join(world.config.dataDir, 'resumes', reference));
    return;
  }
  const pool = new pg.Pool({ connectionString: store.env.DATABASE_URL, max: 1 });
  try {
    await pool.query('DELETE FROM resume_chunks WHERE reference = $1', [reference]);
  } finally {
    await pool.end();
  }
}

/** `outbox list` as an operator runs it beside this proxy (DATABASE_URL set as the proxy has it). */
async function outboxList(store: ScenarioStore, dataDir: string): Promise<string> {
  const previous = process.env.DATABASE_URL;
  if (store.env.DATABASE_URL !== undefined) process.env.DATABASE_URL = store.env.DATABASE_URL;
  try {
    return await runOutboxCommand(['list', '--data-dir', dataDir]);
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}

for (const store of [SQLITE_STORE, await postgresStore()]) {
  describe(`a queued application whose resume is gone (${store.name})`, { skip: store.skip }, () => {
    let world: ApplyWorld;
    before(async () => {
      // A failed attempt waits minutes: the one attempt after the loss is the one the test makes due.
      world = await startApplyWorld({ env: store.env, delivery: { baseBackoffMs: HOUR, maxBackoffMs: HOUR } });
    });
    after(() => world?.close());

    it('is dead-lettered at its next attempt as resume_missing, logged at error level with its reference, counted, and shown by outbox list', async () => {
      await admin(world.sandbox, 'POST', '/faults', { count: 1, status: 503 });
      const answer = await apply(world.proxyUrl, { fields: validFields(world.openCampaignIds[0]!) });
      assert.equal(answer.status, 202, answer.text);
      const reference = String(answer.body.reference);
      const outbox = world.applications.outbox;
      // The 202 can reach the test before the failed first attempt is recorded (the row still reads delivering).
      const queued = await eventually(
        async () => {
          const summary = await outbox.summary(reference);
          return summary?.status !== 'delivering' && summary;
        },
        { timeoutMs: 10_000, what: 'the failed first attempt to be recorded' },
      );
      assert.deepEqual([queued.status, queued.attempts], ['pending', 1]);

      await loseResume(store, world, reference);
      assert.equal(await outbox.retry(reference, HOUR), 'queued');
      const row = await eventually(
        async () => {
          const summary = await outbox.summary(reference);
          return summary?.status === 'dead' && summary;
        },
        { timeoutMs: 10_000, what: 'the application to be dead-lettered' },
      );

      assert.equal(row.outcome, 'resume_missing');
      assert.match(row.last_error ?? '', /^resume_missing \(/);
      assert.equal(row.attempts, 2, 'one attempt after the loss, and none after it');
      assert.equal(row.personal_data, true, 'its fields are kept for an operator');

      const logged = world.logs.lines.filter(
        (line) => line.reference === reference && line.result === 'resume_missing',
      );
      assert.deepEqual(
        logged.map((line) => [line.level, line.status]),
        [[50, 'dead']],
      );
      const metrics = await (await fetch(world.metricsUrl)).text();
      assert.equal(metricValue(metrics, 'applications_resume_missing_total'), 1);
      assert.match(metrics, /applications_dead_lettered_total\{outcome="resume_missing"\} 1/);

      const listed = await outboxList(store, world.config.dataDir);
      assert.match(listed, new RegExp(`${reference}\\s+dead\\s.*resume_missing\\s.*resume_missing \\(`));
    });
  });
}
