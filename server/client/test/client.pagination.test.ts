// All-pages iteration over more than a thousand records, over real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecruitmentClient } from '../index.ts';
import { startWorld } from './world.ts';
import type { World } from './world.ts';

const COUNT = 1_030;
let world: World;
let client: RecruitmentClient;
let listRequests = 0;

before(async () => {
  world = await startWorld();
  client = world.client(world.companyKeys, {
    fetch: (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'GET' && new URL(request.url).pathname === '/v2/applicants') listRequests++;
      return fetch(request);
    },
  });
  // Eight creates in flight at a time, through the client itself.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < COUNT) {
        const n = next++;
        await client.applicants.create({ email: `candidate${n}@example.com`, first_name: `Candidate ${n}` });
      }
    }),
  );
});

after(() => world.close());

describe('listAll over many pages', () => {
  it(`yields each of ${COUNT} applicants exactly once, following next-page over ${Math.ceil(COUNT / 50)} pages`, async () => {
    listRequests = 0;
    const emails = new Set<string>();
    let yielded = 0;
    for await (const applicant of client.applicants.listAll()) {
      emails.add(applicant.email);
      yielded++;
    }
    assert.equal(yielded, COUNT);
    assert.equal(emails.size, COUNT);
    assert.equal(listRequests, Math.ceil(COUNT / 50));
  });

  it('starts from the page asked for and keeps the filters on every page', async () => {
    let yielded = 0;
    for await (const applicant of client.applicants.listAll({
      keywords: 'candidate1',
      sort: 'asc',
      page: 2,
      per_page: 20,
    })) {
      assert.match(applicant.email, /^candidate1/);
      yielded++;
    }
    // candidate1, candidate10-19, candidate100-199, candidate1000-1029: 141 matches, the first 20 skipped.
    assert.equal(yielded, 141 - 20);
  });

  it('when a record is created during the walk, still yields every record that existed, once', async () => {
    const seen = new Set<number>();
    let duplicates = 0;
    let created = false;
    for await (const applicant of client.applicants.listAll({ per_page: 50 })) {
      if (seen.has(applicant.id)) duplicates++;
      seen.add(applicant.id);
      if (!created && seen.size === 60) {
        created = true;
        await client.applicants.create({ email: 'latecomer@example.com' });
      }
    }
    assert.equal(duplicates, 0);
    assert.ok(seen.size >= COUNT);
  });
});
