import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteApplicationStore } from '../storage/sqlite-store.ts';
import { claimed } from '../storage/test-support.ts';
import { eventually } from '../../test/poll.ts';
import { RetentionSweeper } from './retention.ts';
import type { SweepResult } from './retention.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('RetentionSweeper', () => {
  let dir: string;
  let now: number;
  let outbox: SqliteApplicationStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jbc-retention-'));
    now = Date.UTC(2026, 0, 1);
    outbox = new SqliteApplicationStore({ dataDir: dir, owner: 'test', now: () => now });
  });
  afterEach(async () => {
    await outbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a pass as it starts and then every interval, until stopped', async () => {
    await outbox.enqueue(
      { reference: 'r1', campaign_id: 1, company_id: 1, payload: { applicant: { email: 'ada@example.org' } }, resume: null, resume_type: null },
      { deadLetterAfterMs: 1 },
    );
    const r1Lease = await claimed(outbox, 'r1');
    await outbox.markDead(r1Lease, 'expired', 'server_error (503)');
    await outbox.hitRate('ip:1', 1000);
    now += 30 * DAY;
    const passes: SweepResult[] = [];
    const sweeper = new RetentionSweeper(outbox, { retentionMs: 30 * DAY, intervalMs: 20 }, { onSwept: (result) => passes.push(result) });
    sweeper.start();
    await eventually(() => passes.length > 0, { timeoutMs: 2000, what: 'the first pass' });
    assert.deepEqual(passes[0], { erased: ['r1'], rateCounters: 1, idempotencyKeys: 0 }, 'the first pass runs at start');
    await new Promise((resolve) => setTimeout(resolve, 70));
    await sweeper.stop();
    const count = passes.length;
    assert.ok(count >= 2, `passes: ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(passes.length, count, 'no pass after stop');
    assert.equal((await outbox.get('r1'))?.payload, null);
  });

});
