import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteApplicationStore } from '../storage/sqlite-store.ts';
import { claimed } from '../storage/test-support.ts';
import { eventually } from '../../test/poll.ts';
import { RetentionSweeper, retentionMsOf } from './retention.ts';
import type { SweepResult } from './retention.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

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
    await eventually(() => passes.length >= 3, { timeoutMs: 10_000, what: 'two passes after the first' });
    await sweeper.stop();
    const count = passes.length;
    // Five intervals without a pass: a loaded machine runs timers late, never early.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(passes.length, count, 'no pass after stop');
    assert.equal((await outbox.get('r1'))?.payload, null);
  });

  it('erases a dead-lettered row PERSONAL_DATA_RETENTION_DAYS (30) after its dead-letter time, not after its creation', async () => {
    const created = now;
    await outbox.enqueue(
      { reference: 'late', campaign_id: 1, company_id: 1, payload: { applicant: { email: 'ada@example.org' } }, resume: null, resume_type: null },
      { deadLetterAfterMs: 29 * DAY },
    );
    now = created + 29 * DAY;
    await outbox.markDead(await claimed(outbox, 'late'), 'expired', 'server_error (503)');
    const sweeper = new RetentionSweeper(outbox, { retentionMs: retentionMsOf(30), intervalMs: DAY });
    const erasedAt = async (at: number) => {
      now = at;
      return (await sweeper.sweep()).erased;
    };
    assert.deepEqual(await erasedAt(created + 30 * DAY + HOUR), [], '30 days after creation, 1 day after the dead letter: kept');
    assert.deepEqual(await erasedAt(created + 29 * DAY + 29 * DAY + 23 * HOUR), [], '29 days 23 hours after the dead letter: kept');
    assert.notEqual((await outbox.get('late'))?.payload, null);
    assert.deepEqual(await erasedAt(created + 29 * DAY + 30 * DAY + HOUR), ['late'], '30 days and an hour after the dead letter: erased');
    assert.equal((await outbox.get('late'))?.payload, null);
  });

});
