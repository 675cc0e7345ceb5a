import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { toCatalogueCampaign } from '../../catalogue/catalogue.ts';
import { upstreamCampaign } from '../../catalogue/fixtures.test-support.ts';
import type { CatalogueCampaign } from '../../catalogue/types.ts';
import { inCodePointOrder } from './catalogue-facet-counts.ts';
import { openCatalogueStore } from './catalogue-sqlite.ts';

/** A seeded generator (mulberry32): the same changes at every run. */
function seeded(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]! };
}

// More values than offers, so that values often come and go.
const CITIES = ['Lyon', 'Paris', 'Nantes', 'Évry', 'brest', 'Brest', 'Lille', 'Rennes', 'Metz', 'Nice', null];
const JOB_TYPES = ['Permanent contract', 'Freelance', 'Internship', 'Apprenticeship', 'Temporary', null];
const WORKING_TIMES = ['Full time', 'Part time', null];
const COMPANIES = [1, 2, 3, 4, 5, 6, 7, 8];
const COMPANY_NAMES = ['Acme', 'Globex', 'Initech', 'acme', 'Umbrella', null];
const STATUSES = ['online', 'online', 'online', 'standby'] as const;

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('catalogue facets kept as counts', () => {
  it('equal a full recount after every batch of random changes: new, changed and removed offers, changed company, city, job type, status', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogue-facets-'));
    dirs.push(dir);
    const random = seeded(20_261_126);
    const base = toCatalogueCampaign(upstreamCampaign({ id: 1 }));
    const randomOffer = (id: number): CatalogueCampaign => ({
      ...base,
      id,
      name: `Offer ${id}`,
      status: random.pick(STATUSES),
      city: random.pick(CITIES),
      job_type: random.pick(JOB_TYPES),
      working_time: random.pick(WORKING_TIMES),
      company_id: random.pick(COMPANIES),
      company_name: random.pick(COMPANY_NAMES),
    });
    let nextId = 1;
    const store = openCatalogueStore(dir);
    const first = Array.from({ length: 12 }, () => randomOffer(nextId++));
    store.replaceAll(first, new Date());
    // Read once: from here on, only the changes move them.
    store.facets();

    for (let round = 0; round < 100; round++) {
      const upserts: CatalogueCampaign[] = [];
      const deletes: number[] = [];
      for (let n = 0; n < 6; n++) {
        const ids = store.ids();
        const roll = random.next();
        if (roll < 0.25 || ids.length === 0) upserts.push(randomOffer(nextId++));
        else if (roll < 0.5) deletes.push(random.pick(ids));
        else if (roll < 0.55) deletes.push(nextId + 1_000);
        else {
          const changed = { ...store.get(random.pick(ids))! };
          const field = random.pick([
            'city',
            'job_type',
            'working_time',
            'company',
            'company_name',
            'status',
            'name',
          ] as const);
          if (field === 'city') changed.city = random.pick(CITIES);
          else if (field === 'job_type') changed.job_type = random.pick(JOB_TYPES);
          else if (field === 'working_time') changed.working_time = random.pick(WORKING_TIMES);
          else if (field === 'company') changed.company_id = random.pick(COMPANIES);
          else if (field === 'company_name') changed.company_name = random.pick(COMPANY_NAMES);
          else if (field === 'status') changed.status = random.pick(STATUSES);
          else changed.name = `Offer ${changed.id}, round ${round}`;
          upserts.push(changed);
        }
      }
      // One write in three alone (upsert, remove), the rest in a batch.
      if (round % 3 === 0 && upserts[0] !== undefined) store.upsert(upserts[0]);
      else if (round % 3 === 1 && deletes[0] !== undefined) store.remove(deletes[0]);
      else store.applyChanges(upserts, deletes);

      // A store opened on the same file reads its facets from the whole table.
      const recounted = openCatalogueStore(dir);
      try {
        assert.deepEqual(store.facets(), recounted.facets(), `facets after round ${round}`);
      } finally {
        recounted.close();
      }
    }
    store.close();
  });

  it('orders values as SQLite does (by code point): a character above U+FFFF after one just below it', () => {
    const values = ['\u{1F600}', '\uFF21', 'b', 'B', 'É', 'E'];
    assert.deepEqual([...values].sort(inCodePointOrder), ['B', 'E', 'b', 'É', '\uFF21', '\u{1F600}']);
  });
});
