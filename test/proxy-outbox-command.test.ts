// jobboard-connector outbox list | retry ID | purge-delivered, on a real outbox file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Outbox } from '../server/proxy/applications/outbox.ts';
import { runOutboxCommand as run } from './proxy-apply-support.ts';

describe('jobboard-connector outbox', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-outbox-cmd-'));
    const outbox = new Outbox({ dataDir: dir, owner: 'test' });
    for (const reference of ['dead-1', 'done-1', 'wait-1']) {
      outbox.enqueue(
        { reference, campaign_id: 7, company_id: 1, payload: { applicant: { email: 'grace@example.org' } }, resume: Buffer.from('%PDF-1.4'), resume_type: 'pdf' },
        { deadLetterAfterMs: 3_600_000 },
      );
    }
    outbox.claim('dead-1', 1000);
    outbox.markDead('dead-1', 'expired', 'service_unavailable (503)');
    outbox.claim('done-1', 1000);
    outbox.markDelivered('done-1', 'created_applicant', { applicantId: 1, applicationId: 2 });
    outbox.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists every application with its status and last error, and no personal data', async () => {
    const out = await run(['list', '--data-dir', dir]);
    assert.match(out, /dead-1\s+dead\s+7\s+1\s/);
    assert.match(out, /service_unavailable \(503\)/);
    assert.match(out, /pending: 1, delivering: 0, delivered: 1, rejected: 0, dead: 1/);
    assert.equal(out.includes('grace@example.org'), false);
  });

  it('lists one status as JSON lines with --status and --json', async () => {
    const lines = (await run(['list', '--status', 'dead', '--json', '--data-dir', dir])).trim().split('\n');
    assert.equal(lines.length, 1);
    assert.equal((JSON.parse(lines[0]!) as { reference: string }).reference, 'dead-1');
  });

  it('reads the data directory from DATA_DIR', async () => {
    const previous = process.env.DATA_DIR;
    process.env.DATA_DIR = dir;
    try {
      assert.match(await run(['list']), /done-1/);
    } finally {
      if (previous === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = previous;
    }
  });

  it('puts a dead application back in line', async () => {
    assert.match(await run(['retry', 'dead-1', '--data-dir', dir]), /dead-1 queued/);
    const outbox = new Outbox({ dataDir: dir, owner: 'check' });
    assert.equal(outbox.get('dead-1')?.status, 'pending');
    outbox.close();
  });

  it('refuses to retry a delivered or unknown application, saying why', async () => {
    await assert.rejects(run(['retry', 'done-1', '--data-dir', dir]), /is delivered: only dead or waiting applications/);
    await assert.rejects(run(['retry', 'nope', '--data-dir', dir]), /No application nope/);
  });

  it('purges delivered applications only', async () => {
    assert.match(await run(['purge-delivered', '--data-dir', dir]), /Deleted 1 delivered or refused application from the outbox/);
    const out = await run(['list', '--data-dir', dir]);
    assert.equal(out.includes('done-1'), false);
    assert.ok(out.includes('dead-1') && out.includes('wait-1'));
  });

  it('says where it looked when there is no outbox', async () => {
    await assert.rejects(run(['list', '--data-dir', join(dir, 'missing')]), /No outbox in .*missing.*--data-dir or DATA_DIR/);
  });

  it('names an unknown command and a wrong status', async () => {
    await assert.rejects(run(['frobnicate', '--data-dir', dir]), /Unknown outbox command "frobnicate"/);
    await assert.rejects(run(['list', '--status', 'lost', '--data-dir', dir]), /--status must be one of/);
  });
});
