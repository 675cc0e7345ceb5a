// `npm run bench -- sandbox`: GET /v2/applications (a page of 50, with
// filters and embeds) at 100,000 applications. A SQLite file is filled in
// one transaction with prepared statements; the real `sandbox` command then
// serves it in its own process, and each query shape is fetched sequentially
// over keep-alive HTTP, side by side with a trivial endpoint (GET
// /v2/channels) as the baseline of HTTP + auth cost.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext } from '../../server/sandbox/index.ts';
import type { SandboxContext } from '../../server/sandbox/index.ts';
import { createApiClient, createCompany } from '../../server/sandbox/setup.ts';
import { admin } from '../../server/test/sandbox-admin.ts';

const APPLICATIONS = Number(process.env.BENCH_APPLICATIONS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CAMPAIGNS = 200;
const STATUSES = ['new', 'reviewed', 'interview', 'offer', 'hired', 'rejected'];
const SOURCES = ['carriere', 'jobboard_demo', 'linkedin', 'referral'];

/** Fills the store directly: 200 campaigns, 100k applicants each with one application, history, tags, comments. */
export function fill(context: SandboxContext, companyId: number): number {
  const { db } = context;
  const start = performance.now();
  const base = Date.parse('2024-01-01T00:00:00Z');
  db.transaction(() => {
    const campaign = db.raw.prepare(
      `INSERT INTO campaigns (company_id, manage_name, name, status, created_at, updated_at) VALUES (?, ?, ?, 'online', ?, ?)`,
    );
    for (let c = 0; c < CAMPAIGNS; c++) {
      const at = new Date(base + c * 60_000).toISOString();
      campaign.run(companyId, `Campaign ${c}`, `Job ${c}`, at, at);
    }
    const firstCampaign = Number(
      (db.raw.prepare('SELECT MIN(id) AS id FROM campaigns WHERE company_id = ?').get(companyId) as { id: number }).id,
    );
    const applicant = db.raw.prepare(
      `INSERT INTO applicants (company_id, email, first_name, last_name, is_legals_accepted_by_manager, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)`,
    );
    const application = db.raw.prepare(
      `INSERT INTO applications (company_id, campaign_id, applicant_id, source, status, status_changed_at, is_complete, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const history = db.raw.prepare('INSERT INTO status_changes (application_id, value, changed_at) VALUES (?, ?, ?)');
    const tag = db.raw.prepare('INSERT INTO application_tags (application_id, name) VALUES (?, ?)');
    const comment = db.raw.prepare('INSERT INTO comments (application_id, content, created_at) VALUES (?, ?, ?)');
    for (let i = 0; i < APPLICATIONS; i++) {
      const created = new Date(base + i * 300_000).toISOString();
      const changed = new Date(base + i * 300_000 + 86_400_000).toISOString();
      const applicantId = Number(
        applicant.run(companyId, `person${i}@example.com`, `First${i}`, `Last${i}`, created, created).lastInsertRowid,
      );
      const status = STATUSES[i % STATUSES.length]!;
      const appId = Number(
        application.run(
          companyId,
          firstCampaign + (i % CAMPAIGNS),
          applicantId,
          SOURCES[i % SOURCES.length]!,
          status,
          changed,
          i % 3 === 0 ? 1 : 0,
          created,
          created,
        ).lastInsertRowid,
      );
      history.run(appId, 'new', created);
      if (status !== 'new') history.run(appId, status, changed);
      if (i % 4 === 0) tag.run(appId, 'priority');
      if (i % 10 === 0) comment.run(appId, 'Seen at the fair', created);
    }
  });
  db.raw.exec('ANALYZE');
  db.touch();
  return performance.now() - start;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ROUNDS = 8;

/**
 * Times every scenario in alternating rounds (REQUESTS / ROUNDS requests of
 * each per round), so a busy machine slows all rows alike.
 */
async function measureAll(
  scenarios: { url: string; beforeEach?: () => Promise<void> }[],
  token: string,
): Promise<{ p50: number; p99: number; count: number }[]> {
  const headers = { authorization: `Bearer ${token}` };
  const times = scenarios.map(() => [] as number[]);
  const counts = scenarios.map(() => 0);
  for (const { url } of scenarios) for (let i = 0; i < 20; i++) await (await fetch(url, { headers })).arrayBuffer(); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { url, beforeEach }] of scenarios.entries()) {
      for (let i = 0; i < REQUESTS / ROUNDS; i++) {
        await beforeEach?.();
        const start = performance.now();
        const response = await fetch(url, { headers });
        const body = (await response.json()) as unknown[];
        times[index]!.push(performance.now() - start);
        if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
        counts[index] = body.length;
      }
    }
  }
  return times.map((list, index) => {
    list.sort((a, b) => a - b);
    return { p50: percentile(list, 50), p99: percentile(list, 99), count: counts[index]! };
  });
}

/** Starts `jobboard-connector sandbox` on a free port over the given file; resolves with its API root. */
function serve(dbPath: string): Promise<{ url: string; origin: string; stop: () => Promise<void> }> {
  const cli = fileURLToPath(new URL('../../server/cli.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [cli, 'sandbox', '--port', '0', '--db', dbPath, '--rate-limit', '0', '--admin'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+\/v2)/.exec(out)?.[1];
      if (url !== undefined) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({
          url,
          origin: url.replace(/\/v2$/, ''),
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
  });
}

export default async function sandboxBench(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-bench-'));
  const dbPath = join(dir, 'bench.db');
  const context = createContext({ dbPath });
  const company = createCompany(context, { name: 'Bench Co', sources: SOURCES });
  const keys = createApiClient(context, { company_id: company.id });
  const fillMs = fill(context, company.id);
  const firstCampaign = Number(context.db.get<{ id: number }>('SELECT MIN(id) AS id FROM campaigns')!.id);
  context.db.close();
  const server = await serve(dbPath);
  try {
    const tokenResponse = await fetch(`${server.url}/jwt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ private_key: keys.private_key, secret_key: keys.secret_key }),
    });
    const { token } = (await tokenResponse.json()) as { token: string };

    // Counts are cached until the next write; "after a write" rows make one (a tiny admin write) before each request.
    const afterWrite = async () => {
      await admin(server, 'POST', '/pools', { company_id: company.id, name: 'p' });
    };
    const scenarios: [string, string, (() => Promise<void>)?][] = [
      ['baseline: GET /channels (HTTP + auth only)', '/channels'],
      ['page 1, no filter, no embed', '/applications'],
      ['page 1, no filter, no embed, after a write (total from the trigger-kept counts)', '/applications', afterWrite],
      ['page 1, all embeds', '/applications?embed=applicant,campaign,comments,skills,status_history,tags'],
      [
        `campaign_id filter + embeds applicant,campaign,tags,status_history`,
        `/applications?campaign_id=${firstCampaign + 7}&embed=applicant,campaign,tags,status_history`,
      ],
      [
        'status[value] + status[date] range + embeds',
        '/applications?status[value]=interview&status[date][gte]=2024-03-01&status[date][lte]=2024-09-30&embed=applicant,status_history',
      ],
      [
        'status[value] + status[date] range + embeds, after a write',
        '/applications?status[value]=interview&status[date][gte]=2024-03-01&status[date][lte]=2024-09-30&embed=applicant,status_history',
        afterWrite,
      ],
      [
        'is_complete + source + sort asc + embeds',
        '/applications?is_complete=true&source=linkedin&sort=asc&embed=applicant,campaign,tags',
      ],
      [
        'is_complete + source + sort asc + embeds, after a write',
        '/applications?is_complete=true&source=linkedin&sort=asc&embed=applicant,campaign,tags',
        afterWrite,
      ],
      ['page 100 (offset 4,950), embeds', '/applications?page=100&embed=applicant,tags'],
    ];
    const results = await measureAll(
      scenarios.map(([, path, beforeEach]) => ({
        url: `${server.url}${path}`,
        ...(beforeEach === undefined ? {} : { beforeEach }),
      })),
      token,
    );
    const baseline = results[0]!.p50;
    const rows = scenarios.map(([name], index) => {
      const r = results[index]!;
      return `| ${name} | ${r.count} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p50 / baseline).toFixed(1)}× |`;
    });
    return [
      '## Sandbox: GET /v2/applications at 100,000 applications',
      '',
      `Command: \`npm run bench -- sandbox\` (env BENCH_APPLICATIONS=${APPLICATIONS}, BENCH_REQUESTS=${REQUESTS}).`,
      `${APPLICATIONS.toLocaleString('en')} applications (one company, ${CAMPAIGNS} campaigns, history, tags, comments) filled in one transaction in ${(fillMs / 1000).toFixed(1)} s;`,
      `then \`jobboard-connector sandbox --db FILE\` serves it in its own process; ${REQUESTS} sequential keep-alive requests per row are timed, after 20 warm-up requests,`,
      `in ${ROUNDS} alternating rounds so that a busy machine slows every row alike (the client runs in the bench process).`,
      '"After a write" rows make a small write before each request, so the X-Pagination count is recomputed every time instead of coming from the count cache.',
      'Target: p50 under 5 ms for a page of 50 with filters and embeds.',
      '',
      '| query | records | p50 ms | p99 ms | p50 vs baseline |',
      '|---|---:|---:|---:|---:|',
      ...rows,
    ].join('\n');
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
