// `npm run bench -- client`: the client's overhead per call against raw
// fetch on the same sandbox endpoint. Three ways to make the same call, in
// alternating rounds so they share the machine's state: raw fetch + JSON.parse,
// ky alone (what the transport adds), and the client (budget, token, ky,
// contract parsing of every record).
import ky from 'ky';
import { createClient } from '../../server/client/index.ts';
import { startSandbox } from '../../server/sandbox/index.ts';
import { admin } from '../../server/test/sandbox-admin.ts';
import { median } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 100);

interface Variant {
  name: string;
  call: () => Promise<unknown>;
}

async function compare(variants: Variant[]): Promise<Map<string, number>> {
  const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (const v of variants) for (let i = 0; i < 30; i++) await v.call(); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order so that no variant always runs first.
    const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
    for (const v of order) {
      for (let i = 0; i < PER_ROUND; i++) {
        const start = performance.now();
        await v.call();
        times.get(v.name)!.push(performance.now() - start);
      }
    }
  }
  return new Map([...times].map(([name, list]) => [name, median(list)]));
}

export default async function clientBench(): Promise<string> {
  const sandbox = await startSandbox({ port: 0, admin: true, rateLimitPerMinute: 0 });
  try {
    const company = await admin<{ id: number }>(sandbox, 'POST', '/companies', { name: 'Bench' });
    const keys = await admin<{ private_key: string; secret_key: string }>(sandbox, 'POST', '/clients', {
      company_id: company.id,
    });
    const client = createClient({
      baseUrl: sandbox.url,
      privateKey: keys.private_key,
      secretKey: keys.secret_key,
      budget: { perMinute: 1_000_000 },
    });
    let campaignId = 0;
    for (let i = 0; i < 60; i++) {
      const created = await client.campaigns.create({
        manage_name: `Campaign ${i}`,
        name: `Job ${i}`,
        description: '<p>A job description of a few lines, as most campaigns have.</p>'.repeat(5),
        job_type: 'Permanent contract',
        working_time: 'Full time',
        address: { city: 'Lyon', country: 'France' },
      });
      campaignId = created.id;
    }
    const token = (await (
      await fetch(`${sandbox.url}/jwt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ private_key: keys.private_key, secret_key: keys.secret_key }),
      })
    ).json()) as {
      token: string;
    };
    const headers = { authorization: `Bearer ${token.token}`, accept: 'application/json' };
    const api = ky.create({ prefix: sandbox.url, headers, retry: 0 });

    const single = await compare([
      {
        name: 'raw fetch',
        call: async () => {
          const response = await fetch(`${sandbox.url}/campaigns/${campaignId}`, { headers });
          if (response.status !== 200) throw new Error(`raw fetch answered ${response.status}`);
          return JSON.parse(await response.text());
        },
      },
      { name: 'ky', call: () => api.get(`campaigns/${campaignId}`).json() },
      { name: 'client', call: () => client.campaigns.get(campaignId) },
    ]);
    const page = await compare([
      {
        name: 'raw fetch',
        call: async () => {
          const response = await fetch(`${sandbox.url}/campaigns?per_page=50`, { headers });
          if (response.status !== 200) throw new Error(`raw fetch answered ${response.status}`);
          return [JSON.parse(response.headers.get('x-pagination') ?? 'null'), JSON.parse(await response.text())];
        },
      },
      { name: 'ky', call: () => api.get('campaigns', { searchParams: { per_page: 50 } }).json() },
      { name: 'client', call: () => client.campaigns.list({ per_page: 50 }) },
    ]);

    const row = (endpoint: string, results: Map<string, number>) => {
      const raw = results.get('raw fetch')!;
      const kyMs = results.get('ky')!;
      const clientMs = results.get('client')!;
      return `| ${endpoint} | ${raw.toFixed(3)} | ${kyMs.toFixed(3)} (${(kyMs / raw).toFixed(2)}×) | ${clientMs.toFixed(3)} (${(clientMs / raw).toFixed(2)}×) | ${((clientMs - raw) * 1000).toFixed(0)} µs |`;
    };
    return [
      '## Client: overhead per call against raw fetch',
      '',
      '`npm run bench -- client`. One sandbox on port 0 (rate limit off), sequential calls over keep-alive HTTP,',
      `${ROUNDS} alternating rounds of ${PER_ROUND} calls per variant; median ms per call, ratio to raw fetch in brackets.`,
      '"raw fetch" sends the request with a token and `JSON.parse`s the body; "ky" is ky alone with the same request;',
      '"client" adds the request budget, the cached token, the retry loop and zod parsing of every record against the contract.',
      '',
      '| endpoint | raw fetch | ky | client | client overhead |',
      '|---|---|---|---|---|',
      row(`GET /campaigns/:id (one record)`, single),
      row('GET /campaigns?per_page=50 (a page of 50)', page),
      '',
    ].join('\n');
  } finally {
    await sandbox.close();
  }
}
