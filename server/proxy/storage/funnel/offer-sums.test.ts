// The report's offers as offer-sums.ts ranks and keeps them, without a
// database (the store's contract tests read them through both): the first
// `limit` of the merged parts, and the cache of what was read of some days.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { FUNNEL_STAGES } from '../../../public-api/funnel.ts';
import { seededRandom } from '../../../test/seeded-random.ts';
import { DaysCache, offerSumsOf, topOffers } from './offer-sums.ts';

/** Rows as the database answers offerSumsText, in the order of their ids: pg gives sums as text, so half of them are strings here. */
function rowsOf(sums: Map<number, number[]>, asText: boolean) {
  return [...sums]
    .sort(([a], [b]) => a - b)
    .map(([id, stages]) => ({
      campaign_id: asText ? String(id) : id,
      ...Object.fromEntries(FUNNEL_STAGES.map((stage, s) => [stage, asText ? String(stages[s]) : stages[s]])),
    }));
}

it('ranks the offers of the parts as a plain sort of their added counts does, for every stage and limit', () => {
  const random = seededRandom(11);
  for (let round = 0; round < 30; round += 1) {
    const parts = Array.from({ length: 1 + (round % 3) }, () => {
      const sums = new Map<number, number[]>();
      // Few offers and small counts: many ties, which the offers' ids break.
      for (let i = 0; i < 1 + Math.floor(random() * 25); i += 1)
        sums.set(
          1 + Math.floor(random() * 30),
          FUNNEL_STAGES.map(() => Math.floor(random() * 4)),
        );
      return sums;
    });
    const expected = new Map<number, number[]>();
    for (const part of parts)
      for (const [id, stages] of part)
        expected.set(
          id,
          stages.map((n, s) => n + (expected.get(id)?.[s] ?? 0)),
        );
    const read = parts.map((part, p) => offerSumsOf(rowsOf(part, p % 2 === 1)));
    for (const sort of FUNNEL_STAGES) {
      const s = FUNNEL_STAGES.indexOf(sort);
      const sorted = [...expected]
        .sort(([a, x], [b, y]) => y[s]! - x[s]! || a - b)
        .map(([campaign_id, stages]) => ({ campaign_id, stages }));
      for (const limit of [0, 1, 2, 3, 7, sorted.length - 1, sorted.length, sorted.length + 5].filter((l) => l >= 0)) {
        const top = topOffers(read, sort, limit);
        assert.deepEqual(top, { offers: sorted.slice(0, limit), total: sorted.length }, `${round} ${sort} ${limit}`);
      }
    }
  }
});

it('reads a row without a stage as 0 of it', () => {
  const { ids, sums } = offerSumsOf([{ campaign_id: '4', listed: '2' }]);
  assert.deepEqual(ids, [4]);
  assert.deepEqual(Array.from(sums), [2, ...FUNNEL_STAGES.slice(1).map(() => 0)]);
});

it('keeps what was read of some days while their fingerprint stays, and reads again when it changes', async () => {
  const cache = new DaysCache<number>(2);
  let reads = 0;
  const read = async () => (reads += 1);
  assert.equal(await cache.get('a', 'one', read), 1);
  assert.equal(await cache.get('a', 'one', read), 1, 'the same days, the same totals: kept');
  assert.equal(await cache.get('a', 'two', read), 2, 'other totals: read again');
  assert.equal(await cache.get('a', 'two', read), 2);
  assert.equal(await cache.get('b', 'two', read), 3, 'other days: read');
});

it('shares one reading between two asks at once', async () => {
  const cache = new DaysCache<string>(2);
  let reads = 0;
  const read = () => {
    reads += 1;
    return new Promise<string>((resolve) => setTimeout(() => resolve('read'), 10));
  };
  assert.deepEqual(await Promise.all([cache.get('a', 'f', read), cache.get('a', 'f', read)]), ['read', 'read']);
  assert.equal(reads, 1);
});

it('keeps the last `size` keys asked, the least recently asked going first', async () => {
  const cache = new DaysCache<string>(2);
  const reads: string[] = [];
  const ask = (key: string) =>
    cache.get(key, 'f', async () => {
      reads.push(key);
      return key;
    });
  await ask('a');
  await ask('b');
  await ask('a'); // kept; now the most recently asked
  await ask('c'); // b goes
  await ask('a');
  await ask('c');
  assert.deepEqual(reads, ['a', 'b', 'c']);
  await ask('b');
  assert.deepEqual(reads, ['a', 'b', 'c', 'b'], 'b was let go');
  await ask('c');
  await ask('b');
  assert.deepEqual(reads, ['a', 'b', 'c', 'b'], 'the two last asked are kept');
});

it('forgets a reading that failed, so that the next ask reads again', async () => {
  const cache = new DaysCache<string>(2);
  await assert.rejects(
    cache.get('a', 'f', () => Promise.reject(new Error('database gone'))),
    /database gone/,
  );
  assert.equal(await cache.get('a', 'f', async () => 'read again'), 'read again');
});

it("forgets a failed reading only while it is the key's: a newer one stays", async () => {
  const cache = new DaysCache<string>(2);
  let fail!: (error: Error) => void;
  const failing = cache.get('a', 'old', () => new Promise<string>((_, reject) => (fail = reject)));
  await cache.get('a', 'new', async () => 'newer');
  fail(new Error('late failure'));
  await assert.rejects(failing, /late failure/);
  let reads = 0;
  assert.equal(
    await cache.get('a', 'new', async () => {
      reads += 1;
      return 'read again';
    }),
    'newer',
  );
  assert.equal(reads, 0);
});
