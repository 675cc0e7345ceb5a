// An instance's local copy of the shared catalogue kept in its DATA_DIR
// (catalogue.db), so that its searches run on a thread of their own: what
// the shared copy holds is served and searched from the file, and a file
// left by an earlier run is brought to the shared copy at the first load.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import { freshMigratedDatabase, skipWithoutPostgres } from '../../../test/postgres.ts';
import { toCatalogueCampaign } from '../../catalogue/catalogue.ts';
import { upstreamCampaign } from '../../catalogue/fixtures.test-support.ts';
import { openSharedCatalogueStore } from './catalogue-shared.ts';
import type { SharedCatalogue } from './catalogue-shared.ts';

const skip = skipWithoutPostgres();
const url = skip ? '' : await freshMigratedDatabase();
/** A database whose shared copy was never written. */
const emptyUrl = skip ? '' : await freshMigratedDatabase();
const silent = pino({ level: 'silent' });
const everything = { page: 1, per_page: 50 };

describe("shared catalogue kept in the instance's folder", { skip }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'jc-shared-file-'));
  const opened: { pool: pg.Pool; shared: SharedCatalogue }[] = [];
  const open = async (databaseUrl: string) => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const shared = await openSharedCatalogueStore(pool, { logger: silent, dataDir, checkEveryMs: 3_600_000 });
    opened.push({ pool, shared });
    return shared;
  };
  const close = async (shared: SharedCatalogue) => {
    const at = opened.findIndex((o) => o.shared === shared);
    const [{ pool }] = opened.splice(at, 1) as [{ pool: pg.Pool; shared: SharedCatalogue }];
    await shared.close();
    await pool.end();
  };
  after(async () => {
    for (const { shared } of [...opened]) await close(shared);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps the shared copy in catalogue.db of the instance's folder and searches it there", async () => {
    const shared = await open(url);
    assert.equal(await shared.lead(), true);
    const nurse = toCatalogueCampaign(upstreamCampaign({ id: 1, name: 'Night nurse' }));
    const driver = toCatalogueCampaign(upstreamCampaign({ id: 2, name: 'Van driver' }));
    await shared.applyChanges({ upserts: [nurse, driver], deletes: [] }, new Date());
    const found = await shared.store.searchAsync({ ...everything, q: 'nurse' });
    assert.deepEqual(
      found.items.map((c) => c.id),
      [1],
    );
    assert.ok(existsSync(join(dataDir, 'catalogue.db')));
    await close(shared);
  });

  it('serves nothing a file from an earlier run holds when the database has no shared copy, and the shared copy when it has one', async () => {
    const empty = await open(emptyUrl);
    assert.deepEqual(
      (await empty.store.searchAsync(everything)).items,
      [],
      'the offers of the earlier run are not served',
    );
    await close(empty);
    const again = await open(url);
    assert.deepEqual((await again.store.searchAsync(everything)).items.map((c) => c.id).sort(), [1, 2]);
  });
});
