// The proxy on PostgreSQL needs no right to create tables: the partners'
// guide's two roles, made with exactly its statements (read from the guide,
// with names of this run), the owner migrating with `jobboard-connector
// migrate`, the proxy running as the role that may only read and write rows.
// Against the real sandbox; every database and role made here is dropped.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { loadProxyConfig } from '../server/proxy/config.ts';
import { startProxy } from '../server/proxy/index.ts';
import { POSTGRES_MIGRATIONS } from '../server/proxy/storage/postgres-schema.ts';
import { startSandbox } from '../server/sandbox/index.ts';
import type { RunningSandbox } from '../server/sandbox/index.ts';
import { captureLogs } from '../server/test/logs.ts';
import { TEST_DATABASE_URL, skipWithoutPostgres } from '../server/test/postgres.ts';
import { CLI } from './cli-processes.ts';
import { apply, fetch, proxyEnv, upstreamApplications, validFields } from './proxy-apply.test-support.ts';

const GUIDE = new URL('../server/proxy/README.md', import.meta.url);
const skip = skipWithoutPostgres();
const tmp = mkdtempSync(join(tmpdir(), 'jbc-pg-roles-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The SQL block of the guide under `<!-- postgres-roles:NAME -->`. */
function guideSql(name: 'create' | 'grant'): string {
  const found = new RegExp(`<!-- postgres-roles:${name} -->\\n\`\`\`sql\\n([\\s\\S]*?)\`\`\``).exec(
    readFileSync(GUIDE, 'utf8'),
  );
  assert.ok(found, `the guide has a sql block marked postgres-roles:${name}`);
  return found[1]!;
}

function withUser(url: string, user: string, database: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = '';
  u.pathname = `/${database}`;
  return u.toString();
}

async function run(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The guide's roles and database with names of their own (roles are
 * cluster-wide), and how to drop them; `migrated` runs the migrate command as
 * the owner.
 */
async function guideSetUp(): Promise<{ ownerUrl: string; proxyUrl: string; drop(): Promise<void> }> {
  const suffix = randomBytes(5).toString('hex');
  const names = { owner: `jc_owner_${suffix}`, proxy: `jc_proxy_${suffix}`, database: `jc_roles_${suffix}` };
  const named = (sql: string) =>
    sql
      .replace(/\bjobboard_owner\b/g, names.owner)
      .replace(/\bjobboard_proxy\b/g, names.proxy)
      .replace(/\bjobboard\b/g, names.database);
  const server = TEST_DATABASE_URL!;
  // CREATE DATABASE cannot run in the transaction of a multi-statement query: one statement at a time.
  for (const statement of named(guideSql('create'))
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean))
    await run(server, statement);
  const superuser = new URL(server).username;
  await run(withUser(server, superuser, names.database), named(guideSql('grant')));
  return {
    ownerUrl: withUser(server, names.owner, names.database),
    proxyUrl: withUser(server, names.proxy, names.database),
    async drop() {
      await run(server, `DROP DATABASE IF EXISTS ${names.database} WITH (FORCE)`);
      await run(server, `DROP ROLE IF EXISTS ${names.proxy}`);
      await run(server, `DROP ROLE IF EXISTS ${names.owner}`);
    },
  };
}

function cli(command: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _inherited, ...base } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI.sources, command],
      { env: { ...base, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
      },
    );
  });
}

describe("the proxy under the partners' guide's PostgreSQL roles", { skip }, () => {
  let sandbox: RunningSandbox;
  const drops: (() => Promise<void>)[] = [];

  before(async () => {
    sandbox = await startSandbox({ admin: true, seed: 'demo', rateLimitPerMinute: 0 });
  });
  after(async () => {
    await sandbox?.close();
    for (const drop of drops) await drop();
  });

  it('after the owner migrated, a proxy whose role may only read and write rows starts, serves the catalogue and delivers an application', async () => {
    const roles = await guideSetUp();
    drops.push(roles.drop);
    const migrated = await cli('migrate', { DATABASE_URL: roles.ownerUrl, DATA_DIR: join(tmp, 'migrate') });
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stdout, new RegExp(`applied ${POSTGRES_MIGRATIONS.length} migrations`));

    const config = loadProxyConfig(
      proxyEnv(sandbox, mkdtempSync(join(tmp, 'data-')), { DATABASE_URL: roles.proxyUrl }),
    );
    const proxy = await startProxy({ config, logger: captureLogs().logger, shutdownGraceMs: 0 });
    try {
      const synced = await proxy.catalogue.syncNow();
      assert.ok(synced > 0, 'the catalogue synced through the shared budget and was published to the shared copy');
      const listed = (await (await fetch(`${proxy.url}/api/campaigns`)).json()) as { items: { id: number }[] };
      assert.ok(listed.items.length > 0, 'the catalogue is served');
      const fields = validFields(listed.items[0]!.id);
      const answer = await apply(proxy.url, { fields });
      assert.equal(answer.status, 201, answer.text);
      assert.equal(upstreamApplications(sandbox, fields.email).length, 1, 'the application reached the service');
    } finally {
      await proxy.close();
    }
    const tables = new pg.Client({ connectionString: roles.ownerUrl });
    await tables.connect();
    try {
      const { rows } = await tables.query<{ owner: string }>(
        "SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'public'",
      );
      assert.deepEqual(
        rows.map((r) => r.owner),
        [new URL(roles.ownerUrl).username],
        "every table is the owner's",
      );
    } finally {
      await tables.end();
    }
  });

  it('on a database not migrated yet, a proxy under that role exits 1 with one line: the version it is at, the one needed, and to run migrate as the owner', async () => {
    const roles = await guideSetUp();
    drops.push(roles.drop);
    const started = await cli('proxy', {
      ...proxyEnv(sandbox, mkdtempSync(join(tmp, 'data-'))),
      DATABASE_URL: roles.proxyUrl,
      LOG_LEVEL: 'silent',
    });
    assert.equal(started.code, 1, started.stdout + started.stderr);
    const latest = POSTGRES_MIGRATIONS.at(-1)!.version;
    assert.match(
      started.stderr,
      new RegExp(
        `^postgres://jc_proxy_\\w+@[^:]+:\\d+/jc_roles_\\w+: the schema is at version 0, this proxy needs version ${latest}, and its database role may not migrate it \\(permission denied for schema public\\): run \`jobboard-connector migrate\` with the owner's DATABASE_URL, then start the proxy again\\.\\n$`,
      ),
    );
  });
});
