// When a report re-reads today's offers: whenever the day's totals change
// while today holds few offers; at most every few seconds, in the background,
// once it holds many; and before answering when what was kept is too old.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { OfferSums } from './offer-sums.ts';
import { TodaySums } from './today-sums.ts';

/** A reader of `offers` offers whose counts are the number of the reading, and the readings it made. */
function reader(offers: number) {
  const reads: number[] = [];
  const read = async (): Promise<OfferSums> => {
    reads.push(reads.length + 1);
    const ids = Array.from({ length: offers }, (_, i) => i + 1);
    return { ids, sums: new Float64Array(offers * 10).fill(reads.length) };
  };
  return { read, reads };
}

const POLICY = { freshMs: 2000, staleMs: 5000, exactUpTo: 3 };
const first = async (sums: Promise<OfferSums>) => (await sums).sums[0];

it('re-reads today whenever its totals change while it holds few offers', async () => {
  const { read, reads } = reader(3);
  const today = new TodaySums(read, () => 0, POLICY);
  assert.equal(await first(today.get(10, 10, 'a')), 1);
  assert.equal(await first(today.get(10, 10, 'a')), 1, 'the same totals: nothing read');
  assert.equal(await first(today.get(10, 10, 'b')), 2);
  assert.equal(await first(today.get(10, 10, 'c')), 3);
  assert.equal(reads.length, 3);
});

it('keeps many offers of today for a few seconds, re-reads them in the background, and waits once they are too old', async () => {
  const { read, reads } = reader(4);
  let now = 0;
  const today = new TodaySums(read, () => now, POLICY);
  assert.equal(await first(today.get(10, 10, 'a')), 1);
  now = 1999;
  assert.equal(await first(today.get(10, 10, 'b')), 1, 'fresh: answered as kept');
  assert.equal(reads.length, 1);
  now = 2000;
  assert.equal(await first(today.get(10, 10, 'c')), 1, 'kept answered while it is read again');
  assert.equal(await first(today.get(10, 10, 'd')), 2, 'the reading done: answered');
  assert.equal(reads.length, 2);
  now = 2000 + 5000;
  assert.equal(await first(today.get(10, 10, 'e')), 3, 'too old: read before answering');
  assert.equal(await first(today.get(10, 10, 'e')), 3);
  assert.equal(reads.length, 3);
});

it('never reads many offers of today twice at once: the reports meanwhile answer what is kept, or the reading under way', async () => {
  let reads = 0;
  let finish: (() => void) | undefined;
  const read = async (): Promise<OfferSums> => {
    reads += 1;
    const n = reads;
    if (n > 1) await new Promise<void>((resolve) => (finish = resolve));
    return { ids: [1, 2, 3, 4], sums: new Float64Array(40).fill(n) };
  };
  let now = 0;
  const today = new TodaySums(read, () => now, POLICY);
  assert.equal(await first(today.get(10, 10, 'a')), 1);
  now = 2500;
  assert.equal(await first(today.get(10, 10, 'b')), 1, 'a re-read started, the kept answered');
  now = 9000;
  assert.equal(await first(today.get(10, 10, 'c')), 1, 'too old, but a re-read is under way: the kept answered');
  assert.equal(await first(today.get(10, 10, 'd')), 1);
  assert.equal(reads, 2, 'one re-read');
  finish!();
  await new Promise((resolve) => setImmediate(resolve));
  now = 4000;
  assert.equal(await first(today.get(10, 10, 'e')), 2, 'the re-read done: answered');
});
