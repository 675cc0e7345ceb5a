// Which offers are closed (410) rather than never seen (404): the store's
// tombstones, from its removals, complete syncs and closed writes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openCatalogueStore } from '../storage/catalogue/catalogue-sqlite.ts';
import { toCatalogueCampaign } from './catalogue.ts';
import type { CatalogueCampaign } from './types.ts';
import { upstreamCampaign } from './fixtures.test-support.ts';
import { createCatalogueReader } from './routes/reader.ts';
import { withTombstones } from './tombstones.ts';
import { closedOfferProblem } from './routes/closed-offer.ts';

const offer = (id: number, status: 'online' | 'archived' = 'online') =>
  toCatalogueCampaign(upstreamCampaign({ id, status }));

describe('tombstones', () => {
  it('tell an offer removed, left out of a complete sync or written closed from one never seen, and forget one listed again', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1), offer(2), offer(3), offer(4)], new Date());
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((id) => store.gone(id)),
      [false, false, false, false, false],
    );
    store.remove(1);
    store.replaceAll([offer(3), offer(4)], new Date());
    store.upsert(offer(4, 'archived'));
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((id) => store.gone(id)),
      [true, true, false, true, false],
    );
    store.upsert(offer(2));
    assert.equal(store.gone(2), false, 'listed again');
    store.close();
  });

  it("tell the offers a sync's changes removed or closed, and forget one they list again", () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1), offer(2), offer(3)], new Date());
    store.applyChanges([offer(2, 'archived'), offer(4)], [1]);
    assert.deepEqual(
      [1, 2, 3, 4].map((id) => store.gone(id)),
      [true, true, false, false],
    );
    store.applyChanges([offer(1)], []);
    assert.equal(store.gone(1), false, 'listed again');
    store.close();
  });

  it('count the offers listed in the store before its first change, and forget the oldest past their limit', () => {
    const inner = openCatalogueStore(':memory:');
    inner.replaceAll([offer(1), offer(2), offer(3)], new Date());
    const store = withTombstones(inner, 2);
    store.replaceAll([offer(4)], new Date());
    assert.equal([1, 2, 3].filter((id) => store.gone(id)).length, 2, 'three listed before closed, two remembered');
    store.remove(4);
    assert.equal(store.gone(4), true, 'the newest is remembered');
    assert.equal([1, 2, 3].filter((id) => store.gone(id)).length, 1, 'the oldest forgotten');
    inner.close();
  });

  it('tell an offer this board never listed from a closed one after a sync deletes it, leaves it out or removes it: 404, not 410', () => {
    const store = openCatalogueStore(':memory:');
    const reader = createCatalogueReader(store);
    store.replaceAll([offer(1)], new Date());
    store.applyChanges([], [7]);
    store.replaceAll([offer(1)], new Date());
    store.remove(8);
    assert.deepEqual(
      [7, 8].map((id) => [store.gone(id), reader.closed(id)]),
      [
        [false, false],
        [false, false],
      ],
    );
    assert.equal(closedOfferProblem(reader, 7, null).status, 404);
    store.remove(1);
    assert.equal(closedOfferProblem(reader, 1, null).status, 410, 'the listed one is closed');
    store.close();
  });

  it('do not count as listed an offer the store refused: a later sync deleting it answers 404, not 410', () => {
    const store = openCatalogueStore(':memory:');
    const reader = createCatalogueReader(store);
    store.replaceAll([offer(1)], new Date());
    // Online, but without the column the list is ordered by, which the table requires: the store leaves it out.
    const refused = { ...offer(5), listed_at: null } as unknown as CatalogueCampaign;
    assert.deepEqual(
      store.applyChanges([refused, offer(6)], []).map((s) => s.id),
      [5],
    );
    store.applyChanges([], [5, 6]);
    assert.deepEqual(
      [closedOfferProblem(reader, 5, null).status, closedOfferProblem(reader, 6, null).status],
      [404, 410],
    );
    store.close();
  });

  it('count the offers listed before the first change, whichever change comes first', () => {
    for (const first of ['upsert', 'remove', 'applyChanges'] as const) {
      const inner = openCatalogueStore(':memory:');
      inner.replaceAll([offer(1), offer(2)], new Date());
      const store = withTombstones(inner);
      if (first === 'upsert') store.upsert(offer(1, 'archived'));
      if (first === 'remove') store.remove(1);
      if (first === 'applyChanges') store.applyChanges([], [1]);
      assert.deepEqual([store.gone(1), store.gone(2)], [true, false], first);
      inner.close();
    }
  });

  it('forget an offer a complete sync lists again', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1), offer(2)], new Date());
    store.remove(1);
    store.replaceAll([offer(1)], new Date());
    assert.deepEqual([store.gone(1), store.gone(2)], [false, true]);
    store.close();
  });

  it('write through to the store: a change reaches it as the tombstones note it', () => {
    const store = openCatalogueStore(':memory:');
    store.replaceAll([offer(1)], new Date());
    store.upsert(offer(2));
    store.applyChanges([offer(3)], [1]);
    assert.deepEqual(
      [1, 2, 3].map((id) => store.get(id)?.id),
      [undefined, 2, 3],
    );
    store.close();
  });

  it('spend no room on offers a complete sync keeps: an older tombstone stays', () => {
    const inner = openCatalogueStore(':memory:');
    inner.replaceAll([offer(1), offer(2), offer(3)], new Date());
    const store = withTombstones(inner, 1);
    store.remove(1);
    store.replaceAll([offer(2), offer(3)], new Date());
    assert.deepEqual(
      [1, 2, 3].map((id) => store.gone(id)),
      [true, false, false],
    );
    inner.close();
  });
});
