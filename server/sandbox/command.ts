// `jobboard-connector sandbox`: serves the sandbox recruitment API.
import { parseArgs } from 'node:util';
import { portInUseError } from '../port-in-use.ts';
import { DEMO_ENTITY_COMPANY_KEYS, startSandbox } from './index.ts';

const HELP = `Usage: jobboard-connector sandbox [options]

Serves a working recruitment API (the sandbox) under http://HOST:PORT/v2.

Options:
  --port N          port to listen on (default 4010; 0 picks a free one)
  --host H          address to listen on (default 127.0.0.1)
  --db FILE         SQLite file to keep data in (default: in memory, lost on exit)
  --seed demo       create the demo companies, campaigns and key pairs
  --admin           serve the admin routes under /_sandbox (reset, clock, faults...)
  --rate-limit N    requests per minute per API client (default 120; 0 = no limit)
  --rate-limit-window-ms MS
                    length of the rate limit's window (default 60000): N requests per window
  --log             print one line per request
  -h, --help        show this help`;

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      db: { type: 'string' },
      seed: { type: 'string' },
      admin: { type: 'boolean', default: false },
      'rate-limit': { type: 'string', default: '120' },
      'rate-limit-window-ms': { type: 'string', default: '60000' },
      log: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const port = wholeNumber(values.port, '--port', 65_535);
  const rateLimit = wholeNumber(values['rate-limit'], '--rate-limit', 1_000_000_000);
  const rateLimitWindowMs = wholeNumber(values['rate-limit-window-ms'], '--rate-limit-window-ms', 86_400_000);
  if (rateLimitWindowMs === 0)
    throw new Error('--rate-limit-window-ms must be at least 1 (use --rate-limit 0 to turn the limit off).');
  if (values.seed !== undefined && values.seed !== 'demo') {
    throw new Error(`--seed must be "demo" (got "${values.seed}").`);
  }

  const sandbox = await startSandbox({
    port,
    host: values.host,
    dbPath: values.db ?? ':memory:',
    ...(values.seed === 'demo' ? { seed: 'demo' as const } : {}),
    admin: values.admin,
    rateLimitPerMinute: rateLimit,
    rateLimitWindowMs,
    log: values.log,
  }).catch((error: unknown) => {
    throw portInUseError(
      error,
      port,
      values.host,
      'start the sandbox on another port with --port N (--port 0 picks a free one)',
    );
  });
  const lines = [`Sandbox recruitment API listening on ${sandbox.url}`];
  if (values.admin) lines.push(`Admin routes under ${sandbox.origin}/_sandbox`);
  lines.push(
    `Storage: ${values.db ?? 'in memory'}; rate limit: ${rateLimit === 0 ? 'off' : `${rateLimit} per ${rateLimitWindowMs === 60_000 ? 'minute' : `${rateLimitWindowMs} ms`} per API client`}`,
  );
  if (sandbox.demoKeys !== undefined) {
    const { company, jobboard } = sandbox.demoKeys;
    const rows: [string, string, string][] = [
      [`job board (channel ${jobboard.channel})`, jobboard.private_key, jobboard.secret_key],
      [`company ${company.company_id}`, company.private_key, company.secret_key],
      [
        `company ${DEMO_ENTITY_COMPANY_KEYS.company_id} (Entity option)`,
        DEMO_ENTITY_COMPANY_KEYS.private_key,
        DEMO_ENTITY_COMPANY_KEYS.secret_key,
      ],
    ];
    const width = Math.max(...rows.map(([label]) => label.length));
    lines.push(
      '',
      'Demo key pairs (POST /v2/jwt with {"private_key", "secret_key"}):',
      ...rows.map(([label, priv, secret]) => `  ${label.padEnd(width)}  private_key=${priv} secret_key=${secret}`),
    );
  }
  // Handlers first, so a signal sent as soon as the URL is printed is already handled.
  const closed = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`\n${signal}: closing the sandbox`);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      sandbox.close().then(resolve, (error: unknown) => {
        console.error(error);
        resolve();
      });
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
  console.log(lines.join('\n'));
  await closed;
}

function wholeNumber(raw: string | undefined, flag: string, max: number): number {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) > max) {
    throw new Error(`${flag} must be a whole number from 0 to ${max} (got "${raw ?? ''}").`);
  }
  return Number(raw);
}
