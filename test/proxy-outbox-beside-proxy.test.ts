// `jobboard-connector outbox` run beside a proxy that is storing applications
// (SQLite in DATA_DIR): each command is a process of its own, as an operator's
// shell or a cron job runs it, looping while candidates apply. It must never
// delete what the proxy keeps: every resume reaches the service byte for byte.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteApplicationStore } from '../server/proxy/storage/index.ts';
import { claimed } from '../server/proxy/storage/test-support.ts';
import { eventually } from '../server/test/poll.ts';
import { CLI } from './cli-processes.ts';
import { enqueueApplication } from './outbox-rows.test-support.ts';
import { apply, fetch, startApplyWorld, upstreamResumePath, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';

/** Three rounds of 50: a command meets a store under way in about one of 50 applications here, so one round alone may miss it. */
const APPLICATIONS = 150;
/** Applications sent at once: enough that stores overlap the commands' starts. */
const AT_ONCE = 5;
/** Loops of `outbox list` side by side (and one of `outbox retry`): more commands opening the store, more chances to meet a store under way. */
const LIST_LOOPS = 2;
/** A row that failed this many attempts is not going to be delivered by waiting longer. */
const GIVEN_UP_AFTER_ATTEMPTS = 3;

/** Runs `jobboard-connector outbox ARGS` in a process of its own; answers its exit code and output. */
function outbox(args: string[], dataDir: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [CLI.sources, 'outbox', ...args, '--data-dir', dataDir], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

/** A distinct PDF per candidate, so a resume delivered to the wrong applicant, short or empty, shows. */
function resumeOf(index: number): Buffer {
  return Buffer.concat([
    Buffer.from(`%PDF-1.4\n% candidate ${index}\n`),
    randomBytes(48 * 1024),
    Buffer.from('\n%%EOF\n'),
  ]);
}

describe('outbox commands beside a running proxy (SQLite)', () => {
  let world: ApplyWorld;
  before(async () => {
    // Failed attempts retry every few hundred ms here: the service's own rate limit must not be what holds them back.
    world = await startApplyWorld({ sandboxRateLimitPerMinute: 100_000, budgetPerMinute: 100_000 });
  });
  after(() => world?.close());

  it(
    'while outbox list and outbox retry run in a loop, every one of 150 stored applications reaches the service with its resume, byte for byte',
    { timeout: 180_000 },
    async () => {
      const dataDir = world.config.dataDir;
      const campaign = world.openCampaignIds[0]!;
      const references: string[] = [];
      let applying = true;
      let lists = 0;
      let retries = 0;

      // Loops of commands, one process after another each, for as long as candidates apply.
      const listLoop = async () => {
        while (applying) {
          const run = await outbox(['list', '--limit', '1000'], dataDir);
          assert.equal(run.code, 0, run.out);
          lists += 1;
        }
      };
      const listLoops = Array.from({ length: LIST_LOOPS }, listLoop);
      const retryLoop = (async () => {
        while (applying) {
          const reference = references.at(-1);
          if (reference === undefined) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            continue;
          }
          // Queued again while it waits, or refused because it is delivered or being delivered: never anything else.
          const run = await outbox(['retry', reference], dataDir);
          assert.ok(run.code === 0 || /is (delivered|delivering): only dead or waiting/.test(run.out), run.out);
          retries += 1;
        }
      })();

      const sent: { email: string; resume: Buffer }[] = [];
      try {
        for (let start = 0; start < APPLICATIONS; start += AT_ONCE) {
          // Each group of applications is stored while a command starts: one more has run since the last group.
          const ran = lists + retries;
          await eventually(() => lists + retries > ran, { timeoutMs: 30_000, what: 'an outbox command to run' });
          await Promise.all(
            Array.from({ length: AT_ONCE }, async (_, i) => {
              const resume = resumeOf(start + i);
              const fields = validFields(campaign);
              const answer = await apply(world.proxyUrl, { fields, resume: { bytes: resume } });
              assert.ok(answer.status === 201 || answer.status === 202, `answered ${answer.status}: ${answer.text}`);
              references.push(String(answer.body.reference));
              sent.push({ email: fields.email, resume });
            }),
          );
        }
      } finally {
        applying = false;
        await Promise.all([...listLoops, retryLoop]);
      }
      assert.ok(
        lists >= 3 && retries >= 3,
        `the commands ran beside the applications (${lists} lists, ${retries} retries)`,
      );

      // Every row delivered, or one that keeps failing: then waiting longer would not deliver it.
      const store = world.applications.outbox;
      await eventually(
        async () => {
          const rows = await Promise.all(references.map((reference) => store.summary(reference)));
          return rows.every(
            (row) =>
              row !== undefined &&
              (row.status === 'delivered' || row.status === 'dead' || row.attempts >= GIVEN_UP_AFTER_ATTEMPTS),
          );
        },
        { timeoutMs: 60_000, what: 'every application to be delivered or to have failed several attempts' },
      );
      const undelivered = (await Promise.all(references.map((reference) => store.summary(reference)))).filter(
        (row) => row?.status !== 'delivered',
      );
      assert.deepEqual(
        undelivered.map((row) => `${row?.reference} ${row?.status} ${row?.last_error}`),
        [],
        'applications not delivered',
      );

      for (const { email, resume } of sent) {
        const path = upstreamResumePath(world.sandbox, email);
        assert.equal(typeof path, 'string', `the service holds no resume for ${email}`);
        const stored = Buffer.from(await (await fetch(new URL(path!, world.sandbox.origin))).arrayBuffer());
        assert.ok(stored.equals(resume), `${email}: the service holds ${stored.length} bytes, sent ${resume.length}`);
      }
    },
  );
});

describe('a proxy starting on a data directory a killed proxy left', () => {
  it('deletes the uploads it was receiving and the resumes it had not stored yet, says how many resumes went, and keeps every resume a row holds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'jbc-left-'));
    try {
      const left = new SqliteApplicationStore({ dataDir, owner: 'killed' });
      await enqueueApplication(left, { reference: 'kept', email: 'grace@example.org', resumeIn: dataDir });
      // Dead-lettered: the new proxy keeps it for an operator rather than delivering it (and deleting its file).
      const keptLease = await claimed(left, 'kept', 1000);
      await left.markDead(keptLease, 'expired', 'service_unavailable (503)');
      await left.close();
      writeFileSync(join(dataDir, 'resumes', 'not-stored'), 'moved in by a proxy killed before its row was committed');
      writeFileSync(join(dataDir, 'uploads', 'half.part'), '%PDF-1.4 half an upload');

      const world = await startApplyWorld({ dataDir });
      try {
        assert.deepEqual(readdirSync(join(dataDir, 'resumes')), ['kept']);
        assert.deepEqual(readdirSync(join(dataDir, 'uploads')), []);
        assert.deepEqual(
          world.logs.lines
            .filter((line) => line.event === 'unlinked_resumes_removed')
            .map((line) => [line.level, line.count]),
          [[30, 1]],
        );
      } finally {
        await world.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
