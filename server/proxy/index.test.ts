// startProxy against the sandbox over real HTTP: catalogue sync and
// sanitising, campaigns leaving the catalogue, readiness, upstream metrics,
// and a graceful close that lets an in-flight request finish.
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import pg from 'pg';
import { createClient } from '../client/index.ts';
import { DEMO_KEYS, startSandbox } from '../sandbox/index.ts';
import type { RunningSandbox } from '../sandbox/index.ts';
import { XSS_PAYLOADS, assertHarmless, placeAt } from './catalogue/fixtures.test-support.ts';
import { createProxy, startProxy } from './index.ts';
import type { RunningProxy } from './index.ts';
import { JobPostingAnswer } from '../public-api/schemas.ts';
import { POSTGRES_MIGRATIONS } from './storage/postgres-schema.ts';
import { redactUrl } from './storage/index.ts';
import { captureLogs } from '../test/logs.ts';
import { admin } from '../test/sandbox-admin.ts';
import { TEST_DATABASE_URL, freshDatabase, skipWithoutPostgres } from '../test/postgres.ts';
import { eventually } from '../test/poll.ts';
import { TEST_BOARD_ORIGIN, fetch, testConfig } from './test-support.ts';

const tmp = mkdtempSync(join(tmpdir(), 'proxy-start-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function configFor(sandbox: RunningSandbox, env: Record<string, string> = {}) {
  return testConfig({
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_PRIVATE_KEY: DEMO_KEYS.jobboard.private_key,
    UPSTREAM_SECRET_KEY: DEMO_KEYS.jobboard.secret_key,
    JOBBOARD_CHANNEL: DEMO_KEYS.jobboard.channel,
    DATA_DIR: mkdtempSync(join(tmp, 'data-')),
    ...env,
  });
}

/** The sandbox with its demo data, an admin API and no rate limit. */
const demoSandbox = () => startSandbox({ admin: true, seed: 'demo', rateLimitPerMinute: 0 });

/** A client of the sandbox under one of its demo key pairs. */
function sandboxClient(sandbox: RunningSandbox, keys: { private_key: string; secret_key: string }) {
  return createClient({ baseUrl: sandbox.url, privateKey: keys.private_key, secretKey: keys.secret_key });
}

async function listIds(proxy: RunningProxy): Promise<number[]> {
  const body = (await (await fetch(`${proxy.url}/api/campaigns?per_page=50`)).json()) as { items: { id: number }[] };
  return body.items.map((c) => c.id);
}

describe('startProxy against the sandbox', () => {
  let sandbox: RunningSandbox;
  let proxy: RunningProxy;
  const company = () => sandboxClient(sandbox, DEMO_KEYS.company);

  before(async () => {
    sandbox = await demoSandbox();
    proxy = await startProxy({ config: configFor(sandbox), logger: captureLogs().logger });
    await proxy.catalogue.syncNow();
  });
  after(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it('lists exactly the online campaigns broadcast on the board channel', async () => {
    const board = sandboxClient(sandbox, DEMO_KEYS.jobboard);
    const expected: number[] = [];
    for await (const c of board.campaigns.listAll({ channels: [DEMO_KEYS.jobboard.channel], status: ['online'] }))
      expected.push(c.id);
    assert.ok(expected.length > 0, 'the demo seed broadcasts campaigns');
    assert.deepEqual(
      (await listIds(proxy)).sort((a, b) => a - b),
      expected.sort((a, b) => a - b),
    );
  });

  it('answers ready once synced', async () => {
    const response = await fetch(`${proxy.url}/readyz`);
    assert.equal(response.status, 200);
  });

  it('sanitises every XSS payload of campaign descriptions and profiles on the way in', async () => {
    const created: number[] = [];
    for (const [i, payload] of XSS_PAYLOADS.entries()) {
      const campaign = await company().campaigns.create({
        manage_name: `xss ${i}`,
        name: `XSS probe ${i}`,
        description: `<p>Safe intro ${i}</p>${payload}`,
        profile: payload,
      });
      await admin(sandbox, 'PATCH', `/campaigns/${campaign.id}`, {
        status: 'online',
        channels: [DEMO_KEYS.jobboard.channel],
      });
      created.push(campaign.id);
    }
    await proxy.catalogue.syncNow();
    for (const [i, id] of created.entries()) {
      const response = await fetch(`${proxy.url}/api/campaigns/${id}`);
      assert.equal(response.status, 200, `campaign ${id} is listed`);
      const body = (await response.json()) as { description: string | null; profile: string | null };
      assert.match(body.description ?? '', new RegExp(`<p>Safe intro ${i}</p>`));
      assertHarmless(body.description ?? '');
      assertHarmless(body.profile ?? '');
    }
  });

  it('when a campaign is archived upstream, it leaves the catalogue at the next sync', async () => {
    const [id] = await listIds(proxy);
    assert.ok(id !== undefined);
    await admin(sandbox, 'PATCH', `/campaigns/${id}`, { status: 'archived' });
    await proxy.catalogue.syncNow();
    assert.ok(!(await listIds(proxy)).includes(id));
    assert.equal((await fetch(`${proxy.url}/api/campaigns/${id}`)).status, 404);
  });

  it('when a campaign stops being broadcast on the board channel, it leaves the catalogue at the next sync', async () => {
    const [id] = await listIds(proxy);
    assert.ok(id !== undefined);
    await admin(sandbox, 'PATCH', `/campaigns/${id}`, { channels: [] });
    await proxy.catalogue.syncNow();
    assert.ok(!(await listIds(proxy)).includes(id));
  });

  it('when one upstream campaign breaks the contract, syncs all the others and reports the skipped one in /readyz', async () => {
    const ids = await listIds(proxy);
    const [broken] = ids;
    assert.ok(broken !== undefined && ids.length > 1);
    // The sandbox only serves valid values: write one it does not know straight into its store.
    const { job_type: saved } = sandbox.context.db.get<{ job_type: string }>(
      'SELECT job_type FROM campaigns WHERE id = ?',
      broken,
    )!;
    sandbox.context.db.run(
      'UPDATE campaigns SET job_type = ? WHERE id = ?',
      'Freelance (a value added upstream)',
      broken,
    );
    try {
      await proxy.catalogue.syncNow();
      assert.deepEqual((await listIds(proxy)).sort(), ids.filter((id) => id !== broken).sort());
      const readiness = (await (await fetch(`${proxy.url}/readyz`)).json()) as {
        checks: { catalogue: { status: string; skipped_campaigns?: number }; upstream: { status: string } };
      };
      assert.deepEqual(
        [
          readiness.checks.catalogue.status,
          readiness.checks.catalogue.skipped_campaigns,
          readiness.checks.upstream.status,
        ],
        ['ok', 1, 'ok'],
      );
    } finally {
      sandbox.context.db.run('UPDATE campaigns SET job_type = ? WHERE id = ?', saved, broken);
    }
    await proxy.catalogue.syncNow();
    assert.ok((await listIds(proxy)).includes(broken), 'back once the record is valid again');
  });

  it('refreshCampaign re-checks one campaign upstream: undefined once it is no longer broadcast', async () => {
    const [id] = await listIds(proxy);
    assert.ok(id !== undefined);
    assert.equal((await proxy.catalogue.refreshCampaign(id))?.id, id);
    await admin(sandbox, 'PATCH', `/campaigns/${id}`, { channels: ['some_other_channel'] });
    assert.equal(await proxy.catalogue.refreshCampaign(id), undefined);
    assert.equal(proxy.catalogue.getCampaign(id), undefined);
  });

  it('times upstream calls in the metrics, by endpoint without ids, served on the metrics listener only', async () => {
    assert.match(proxy.metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    assert.notEqual(new URL(proxy.metricsUrl).port, new URL(proxy.url).port);
    assert.equal((await fetch(`${proxy.url}/metrics`)).status, 404);
    const text = await (await fetch(proxy.metricsUrl)).text();
    assert.match(
      text,
      /upstream_request_duration_seconds_count\{method="GET",endpoint="\/campaigns",status="200"\} \d+/,
    );
    assert.match(
      text,
      /upstream_request_duration_seconds_count\{method="GET",endpoint="\/campaigns\/:id",status="200"\} \d+/,
    );
    assert.match(text, /catalogue_age_seconds \d/);
  });
});

describe('startProxy readiness and shutdown', () => {
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await demoSandbox();
  });
  after(() => sandbox?.close());

  it('when upstream refuses the keys, does not start (UpstreamCheckError); unchecked, /readyz answers 503 credentials_refused', async () => {
    const config = configFor(sandbox, { UPSTREAM_SECRET_KEY: 'wrong-secret' });
    await assert.rejects(startProxy({ config, logger: captureLogs().logger }), {
      name: 'UpstreamCheckError',
      message: /were refused by the recruitment API/,
    });
    const proxy = await startProxy({ config, logger: captureLogs().logger, checkUpstream: false });
    try {
      await assert.rejects(proxy.catalogue.syncNow());
      const response = await fetch(`${proxy.url}/readyz`);
      assert.equal(response.status, 503);
      const body = (await response.json()) as {
        checks: { upstream: { status: string }; catalogue: { status: string } };
      };
      assert.equal(body.checks.upstream.status, 'credentials_refused');
      assert.equal(body.checks.catalogue.status, 'never_synced');
    } finally {
      await proxy.close();
    }
  });

  it('after a restart, serves the catalogue of the previous run from its data directory before syncing again', async () => {
    const config = configFor(sandbox);
    const first = await startProxy({ config, logger: captureLogs().logger });
    await first.catalogue.syncNow();
    const before = await listIds(first);
    await first.close();
    // Upstream unreachable now: the catalogue on disk still answers.
    const offline = await startProxy({
      config: { ...config, upstream: { ...config.upstream, url: 'http://127.0.0.1:9/v2' } },
      logger: captureLogs().logger,
    });
    try {
      assert.deepEqual(await listIds(offline), before);
      assert.equal((await fetch(`${offline.url}/readyz`)).status, 200);
    } finally {
      await offline.close();
    }
  });

  it('when the port is taken, says so and names PORT', async () => {
    const first = await startProxy({ config: configFor(sandbox), logger: captureLogs().logger });
    try {
      const config = configFor(sandbox);
      await assert.rejects(
        startProxy({ config: { ...config, port: first.port }, logger: captureLogs().logger }),
        /already in use.*set PORT/,
      );
    } finally {
      await first.close();
    }
  });

  it('close() lets an in-flight request finish, then stops', async () => {
    const proxy = await startProxy({ config: configFor(sandbox), logger: captureLogs().logger });
    const url = new URL(`${proxy.url}/api/config`);
    const received = new Promise<void>((resolve) => proxy.server.once('request', () => resolve()));
    // A request whose body is still arriving when close() is called.
    let finishBody!: () => void;
    const answered = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': '11' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write('{"a":');
      finishBody = () => req.end('"x"}  ');
    });
    await received;
    let closed = false;
    const closing = proxy.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(closed, false, 'close waits for the request');
    finishBody();
    assert.equal(await answered, 405, 'the in-flight request got its answer (POST where only GET is)');
    await closing;
    await assert.rejects(fetch(`${proxy.url}/healthz`), 'no new connection is accepted');
  });
});

describe('startProxy for search engines, against the sandbox', () => {
  const OFFER_URL = 'https://jobs.acme.example/offres?offer={id}';
  let sandbox: RunningSandbox;
  let proxy: RunningProxy;
  const company = () => sandboxClient(sandbox, DEMO_KEYS.company);

  before(async () => {
    sandbox = await demoSandbox();
    proxy = await startProxy({
      config: configFor(sandbox, { BOARD_OFFER_URL: OFFER_URL }),
      logger: captureLogs().logger,
    });
  });
  after(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it("answers the JobPosting of an offer the company published, with Google's required properties and the mapped ones", async () => {
    const { id } = await company().campaigns.create({
      manage_name: 'seo probe',
      name: 'Data engineer',
      description: '<p>Pipelines <script>x()</script></p>',
      profile: '<p>SQL</p>',
      job_type: 'Fixed term contract',
      working_time: 'Part time',
      salary_min: 40000,
      salary_max: 50000,
      date_end: '2027-06-30',
      address: { street_number: '10', street: 'rue de Rivoli', postal_code: '75001', city: 'Paris', country: 'France' },
    });
    await admin(sandbox, 'PATCH', `/campaigns/${id}`, { status: 'online', channels: [DEMO_KEYS.jobboard.channel] });
    await proxy.catalogue.syncNow();
    const upstream = await company().campaigns.get(id);

    const response = await fetch(`${proxy.url}/api/campaigns/${id}/jobposting`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/ld\+json/);
    const posting = JobPostingAnswer.parse(await response.json());
    assert.deepEqual(posting, {
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'Data engineer',
      description: '<p>Pipelines </p>\n<p>SQL</p>',
      datePosted: upstream.last_activation_at,
      validThrough: '2027-06-30T23:59:59Z',
      hiringOrganization: { '@type': 'Organization', name: upstream.company_name },
      jobLocation: placeAt({
        streetAddress: '10 rue de Rivoli',
        postalCode: '75001',
        addressLocality: 'Paris',
        addressCountry: 'France',
      }),
      employmentType: ['TEMPORARY', 'PART_TIME'],
      baseSalary: {
        '@type': 'MonetaryAmount',
        currency: 'EUR',
        value: { '@type': 'QuantitativeValue', minValue: 40000, maxValue: 50000, unitText: 'YEAR' },
      },
      identifier: { '@type': 'PropertyValue', name: upstream.company_name, value: String(id) },
      directApply: true,
      url: `https://jobs.acme.example/offres?offer=${id}`,
    });
    assert.ok(upstream.company_name, 'the sandbox names the company');
  });

  it('answers 404 campaign_not_found for an unknown offer', async () => {
    const response = await fetch(`${proxy.url}/api/campaigns/999999/jobposting`);
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { code: string }).code, 'campaign_not_found');
  });

  it("lists in /sitemap.xml exactly the open offers broadcast on the board, at the template's URLs", async () => {
    const [archived] = await listIds(proxy);
    assert.ok(archived !== undefined);
    await admin(sandbox, 'PATCH', `/campaigns/${archived}`, { status: 'archived' });
    await proxy.catalogue.syncNow();
    const board = sandboxClient(sandbox, DEMO_KEYS.jobboard);
    const open: number[] = [];
    for await (const c of board.campaigns.listAll({ channels: [DEMO_KEYS.jobboard.channel], status: ['online'] }))
      open.push(c.id);
    assert.ok(open.length > 1 && !open.includes(archived));

    const response = await fetch(`${proxy.url}/sitemap.xml`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
    const xml = await response.text();
    assert.equal(XMLValidator.validate(xml), true);
    const { urlset } = new XMLParser({ isArray: (name) => name === 'url' }).parse(xml) as {
      urlset: { url: { loc: string; lastmod: string }[] };
    };
    assert.deepEqual(
      urlset.url.map((u) => u.loc).sort(),
      open.map((id) => `https://jobs.acme.example/offres?offer=${id}`).sort(),
    );
    for (const { lastmod } of urlset.url)
      assert.ok(!Number.isNaN(Date.parse(lastmod)) && /T\d\d:\d\d:\d\d/.test(lastmod), `${lastmod} is a W3C datetime`);
  });
});

describe('startProxy with DATABASE_URL', () => {
  /** A proxy on a PostgreSQL database of its own, the sandbox upstream. */
  async function startOnFreshDatabase(sandbox: RunningSandbox): Promise<{ proxy: RunningProxy; databaseUrl: string }> {
    const databaseUrl = await freshDatabase();
    const proxy = await startProxy({
      config: configFor(sandbox, { DATABASE_URL: databaseUrl }),
      logger: captureLogs().logger,
    });
    return { proxy, databaseUrl };
  }

  it(
    'migrates the database before it listens, hands its pool to the other stores, and ends it on close',
    { skip: skipWithoutPostgres() },
    async () => {
      const sandbox = await demoSandbox();
      const { proxy } = await startOnFreshDatabase(sandbox);
      try {
        assert.ok(proxy.database !== undefined, 'the pool is reachable for the other shared stores');
        const { rows } = await proxy.database.pool.query<{ version: number }>(
          'SELECT version FROM schema_migrations ORDER BY version',
        );
        assert.deepEqual(
          rows,
          POSTGRES_MIGRATIONS.map(({ version }) => ({ version })),
          'migrated before listening',
        );
        assert.equal(proxy.applications.ready(), true);
        const synced = await proxy.catalogue.syncNow();
        assert.ok(synced > 0);
        // The sync went through the shared budget and was published to the shared catalogue copy.
        const copy = await proxy.database.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM catalogue_campaigns',
        );
        assert.equal(copy.rows[0]?.n, synced, 'the catalogue copy is in the database');
        const spent = await proxy.database.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM upstream_budget_spent',
        );
        assert.ok((spent.rows[0]?.n ?? 0) > 0, 'upstream requests were counted in the shared budget');
        assert.equal((await fetch(`${proxy.url}/readyz`)).status, 200);
      } finally {
        await proxy.close();
        await sandbox.close();
      }
      assert.equal(proxy.database.pool.ended, true, 'close() ends the pool');
    },
  );

  it(
    'when the database stops answering while it runs, /readyz answers 503 naming it, and 200 once it answers again',
    { skip: skipWithoutPostgres() },
    async () => {
      const sandbox = await demoSandbox();
      const { proxy, databaseUrl } = await startOnFreshDatabase(sandbox);
      const name = new URL(databaseUrl).pathname.slice(1);
      const owner = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await owner.connect();
      const readiness = async () => {
        const response = await fetch(`${proxy.url}/readyz`);
        return {
          status: response.status,
          database: ((await response.json()) as { checks: { database?: { status: string; database?: string } } }).checks
            .database,
        };
      };
      try {
        await proxy.catalogue.syncNow();
        assert.deepEqual(await readiness(), { status: 200, database: { status: 'ok' } });
        // No new connection is allowed, and the ones open are cut: the database is gone for the proxy.
        await owner.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
        await owner.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        const down = await eventually(
          async () => {
            const now = await readiness();
            return now.status === 503 ? now : undefined;
          },
          { timeoutMs: 15_000, what: '/readyz 503 while the database is unreachable' },
        );
        assert.equal(down.database?.status, 'unreachable');
        assert.equal(down.database?.database, redactUrl(databaseUrl));
        await owner.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
        await eventually(async () => (await readiness()).status === 200, {
          timeoutMs: 15_000,
          what: '/readyz 200 once the database answers again',
        });
      } finally {
        await owner.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`).catch(() => {});
        await owner.end();
        await proxy.close();
        await sandbox.close();
      }
    },
  );

  it('refuses to start when the database cannot be reached, naming it; a mounted proxy answers 503 not_ready', async () => {
    const sandbox = await demoSandbox();
    try {
      // Nothing listens on port 1 of the loopback.
      const config = configFor(sandbox, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/jobs' });
      await assert.rejects(
        startProxy({ config, logger: captureLogs().logger }),
        /application store postgres:\/\/nobody@127\.0\.0\.1:1\/jobs cannot be opened: .*ECONNREFUSED.*Check DATABASE_URL/,
      );
      const mounted = createProxy({ config, logger: captureLogs().logger });
      const server = createServer(mounted.app).listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        await assert.rejects(mounted.ready());
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const readiness = (await (await fetch(`${url}/readyz`)).json()) as { checks: { outbox: { status: string } } };
        assert.equal(readiness.checks.outbox.status, 'not_open');
        const form = new FormData();
        form.set('campaign_id', '1');
        form.set('email', 'ada@example.org');
        const answer = await fetch(`${url}/api/applications`, {
          method: 'POST',
          body: form,
          headers: { origin: TEST_BOARD_ORIGIN, 'idempotency-key': 'k1' },
        });
        const body = (await answer.json()) as { code: string };
        assert.deepEqual([answer.status, body.code], [503, 'not_ready']);
      } finally {
        server.close();
        await mounted.stop();
      }
    } finally {
      await sandbox.close();
    }
  });
});
