// The service's text is data, on both stores, through the real proxy and
// the sandbox: one company's offer with a NUL in its title is listed clean,
// and the other companies' offers beside it (on PostgreSQL the NUL used to
// fail every sync); a candidate's text with a NUL is refused on its field;
// and /readyz names the catalogue's store when that is what fails.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createClient } from '../server/client/index.ts';
import { DEMO_KEYS } from '../server/sandbox/index.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { apply, fetch, startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { SQLITE_STORE, postgresStore } from './proxy-stores.ts';

for (const store of [SQLITE_STORE, await postgresStore()]) {
  describe(`the service's text as data, on ${store.name}`, { skip: store.skip }, () => {
    let world: ApplyWorld;
    /** A second company, with keys of its own. */
    const bakery = { private_key: 'bakery-private-key', secret_key: 'bakery-secret-key' };

    /** An offer of one company, online on the board's channel. */
    async function publish(company: { private_key: string; secret_key: string }, name: string): Promise<number> {
      const client = createClient({
        baseUrl: world.sandbox.url,
        privateKey: company.private_key,
        secretKey: company.secret_key,
      });
      const { id } = await client.campaigns.create({ manage_name: 'text probe', name });
      await admin(world.sandbox, 'PATCH', `/campaigns/${id}`, {
        status: 'online',
        channels: [DEMO_KEYS.jobboard.channel],
      });
      return id;
    }
    const nameOf = async (id: number) => {
      const response = await fetch(`${world.proxyUrl}/api/campaigns/${id}`);
      return response.status === 200 ? ((await response.json()) as { name: string }).name : response.status;
    };

    before(async () => {
      world = await startApplyWorld({ env: store.env });
      const { id } = await admin<{ id: number }>(world.sandbox, 'POST', '/companies', { name: 'Bakery' });
      await admin(world.sandbox, 'POST', '/clients', { company_id: id, ...bakery });
    });
    after(async () => {
      await world?.close();
    });

    it("lists one company's offer with a NUL in its title clean, and another company's new offer beside it", async () => {
      const nurse = await publish(DEMO_KEYS.company, 'Nurse\u0000');
      const baker = await publish(bakery, 'Baker');

      await world.catalogue.syncNow();

      assert.deepEqual([await nameOf(nurse), await nameOf(baker)], ['Nurse', 'Baker']);
      assert.equal(world.catalogue.status().lastError, null);
    });

    it("answers 422 on the field for a candidate's text with a NUL or another control character", async () => {
      const [campaignId] = world.openCampaignIds;
      for (const [field, value] of [
        ['cover_letter', 'Dear team\u0000'],
        ['last_name', 'Love\u0001lace'],
      ] as const) {
        const answer = await apply(world.proxyUrl, { fields: { ...validFields(campaignId!), [field]: value } });
        assert.equal(answer.status, 422, answer.text);
        assert.deepEqual(
          (answer.body.errors as { field: string; code: string }[]).map((e) => [e.field, e.code]),
          [[field, 'invalid_value']],
        );
      }
    });

    it("names the catalogue's store in /readyz when the store fails, not the service", async () => {
      const mend = await breakCatalogueStore(world);
      try {
        await assert.rejects(world.catalogue.syncNow());
      } finally {
        mend();
      }
      const response = await fetch(`${world.proxyUrl}/readyz`);
      const { checks } = (await response.json()) as { checks: Record<string, { status: string }> };
      assert.equal(checks.catalogue_store?.status, 'failing');
      assert.equal(checks.upstream?.status, 'unknown');
    });
  });
}

/** Makes the catalogue's store fail its sync's writes, from a connection of the test's own; answers how to end that on SQLite. */
async function breakCatalogueStore(world: ApplyWorld): Promise<() => void> {
  if (world.config.databaseUrl === null) {
    // Locked by another writer past the store's busy timeout (5 s): its writes fail, its reads go on.
    const db = new DatabaseSync(join(world.config.dataDir, 'catalogue.db'));
    db.exec('BEGIN EXCLUSIVE');
    return () => {
      db.exec('ROLLBACK');
      db.close();
    };
  }
  const client = new pg.Client({ connectionString: world.config.databaseUrl });
  await client.connect();
  try {
    await client.query('ALTER TABLE catalogue_version RENAME TO catalogue_version_gone');
  } finally {
    await client.end();
  }
  return () => undefined;
}
