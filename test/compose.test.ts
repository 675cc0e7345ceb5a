// compose.yaml and its two variable files, read as compose reads them: the
// proxy beside PostgreSQL (its DATABASE_URL pointing at it, started once it is
// healthy), the sandbox only in the trial profile, and files whose variables
// make a configuration the proxy takes. With podman-compose installed (CI
// installs it), `podman-compose config` must read the file too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { ENV_VARIABLES, loadProxyConfig } from '../server/proxy/config.ts';
import { DEMO_KEYS } from '../server/sandbox/index.ts';
import { podmanEnv, run } from './container/podman.ts';

const ROOT = join(import.meta.dirname, '..');
const composeText = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[];
  profiles?: string[];
  env_file?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}

/** A .env file as compose reads it: NAME=value lines, # comments. */
function readEnvFile(name: string): Record<string, string> {
  const entries = readFileSync(join(ROOT, name), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const at = line.indexOf('=');
      assert.ok(at > 0, `${name}: "${line}" is NAME=value`);
      return [line.slice(0, at), line.slice(at + 1)] as const;
    });
  return Object.fromEntries(entries);
}

/** compose.yaml with ${NAME}, ${NAME:-default} and ${NAME:?message} replaced from `env`, as compose does. */
function composeWith(env: Record<string, string>): { services: Record<string, Service>; volumes: object } {
  const text = composeText.replace(
    /\$\{(\w+)(?::([-?])([^}]*))?\}/g,
    (_, name: string, kind?: string, rest?: string) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (kind === '?') throw new Error(`compose.yaml: ${name} is not set: ${rest}`);
      return kind === '-' ? (rest ?? '') : '';
    },
  );
  return parse(text, { merge: true }) as { services: Record<string, Service>; volumes: object };
}

/** compose.yaml's own variables: the names it reads, ${NAME...}. */
const COMPOSE_VARIABLES = new Set([...composeText.matchAll(/\$\{(\w+)/g)].map((m) => m[1]!));

/** What the proxy's container gets: the .env file, then the service's environment over it. */
function proxyEnvironment(envFile: Record<string, string>): Record<string, string> {
  return { ...envFile, ...composeWith(envFile).services.proxy!.environment };
}

describe('compose.yaml', () => {
  const trial = readEnvFile('compose.trial.env');
  const { services, volumes } = composeWith(trial);

  it('runs PostgreSQL on a named volume with a healthcheck, and the proxy on its database once it is healthy', () => {
    const postgres = services.postgres!;
    assert.match(postgres.image!, /^docker\.io\/library\/postgres:/);
    assert.ok(postgres.volumes!.includes('postgres-data:/var/lib/postgresql/data'));
    assert.match(postgres.healthcheck!.test.join(' '), /pg_isready/);
    assert.ok('postgres-data' in volumes && 'proxy-data' in volumes);

    const proxy = services.proxy!;
    assert.deepEqual(proxy.build, {
      context: '.',
      dockerfile: 'Containerfile',
      args: { NODE_IMAGE: 'docker.io/library/node:24-bookworm-slim' },
    });
    assert.equal(proxy.profiles, undefined, 'the proxy runs in every profile');
    assert.deepEqual(proxy.depends_on, { postgres: { condition: 'service_healthy' } });
    assert.equal(proxy.environment!.DATABASE_URL, 'postgres://jobboard:trial@postgres:5432/jobboard');
    assert.ok(proxy.volumes!.includes('proxy-data:/data'));
    assert.equal(proxy.env_file, '.env');
    assert.ok(parseInt(proxy.stop_grace_period!, 10) > 10, 'more than the 10 s the drain may take');
  });

  it('runs the sandbox from the same image in the trial profile only, seeded with the demo job board', () => {
    const sandbox = services.sandbox!;
    assert.deepEqual(sandbox.profiles, ['trial']);
    assert.equal(sandbox.image, services.proxy!.image);
    assert.deepEqual(sandbox.build, services.proxy!.build);
    assert.deepEqual(sandbox.command, ['sandbox', '--host', '0.0.0.0', '--port', '4010', '--seed', 'demo', '--admin']);
    assert.match(sandbox.healthcheck!.test.join(' '), /127\.0\.0\.1:4010/);
  });

  it("points the trial's proxy at the sandbox service with the demo job board's keys, a configuration the proxy takes", () => {
    assert.equal(trial.UPSTREAM_URL, 'http://sandbox:4010/v2');
    assert.equal(trial.UPSTREAM_PRIVATE_KEY, DEMO_KEYS.jobboard.private_key);
    assert.equal(trial.UPSTREAM_SECRET_KEY, DEMO_KEYS.jobboard.secret_key);
    assert.equal(trial.JOBBOARD_CHANNEL, DEMO_KEYS.jobboard.channel);
    const config = loadProxyConfig(proxyEnvironment(trial));
    assert.equal(config.databaseUrl, 'postgres://jobboard:trial@postgres:5432/jobboard');
    assert.equal(config.upstream.url, 'http://sandbox:4010/v2');
  });

  it("documents in compose.env.example only the proxy's variables and compose.yaml's own, and as written it is a valid configuration", () => {
    const example = readEnvFile('compose.env.example');
    for (const name of Object.keys(example))
      assert.ok(
        ENV_VARIABLES.includes(name) || COMPOSE_VARIABLES.has(name),
        `${name} is a variable of the proxy or of compose.yaml`,
      );
    for (const name of [
      'UPSTREAM_URL',
      'UPSTREAM_PRIVATE_KEY',
      'UPSTREAM_SECRET_KEY',
      'JOBBOARD_CHANNEL',
      'POSTGRES_PASSWORD',
    ])
      assert.ok(name in example, `${name} is in the example`);
    // compose.yaml's own names reach the proxy too (env_file): none may look like a typo of one of the proxy's.
    const config = loadProxyConfig(proxyEnvironment(example));
    assert.equal(config.dataDir, '/data');
  });
});

const hasPodmanCompose = spawnSync('podman-compose', ['version'], { env: podmanEnv() }).status === 0;
const skip = hasPodmanCompose || process.env.CI === 'true' ? false : 'podman-compose is not installed (CI installs it)';

// podman-compose 1.0 (Debian's) has no `config` command: its dry run prints the podman commands
// `up` would run (it still creates the volumes and the network, removed afterwards).
describe('podman-compose', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'jbc-compose-'));
  const project = `jbc-compose-${process.pid}`;
  after(async () => {
    for (const volume of ['postgres-data', 'proxy-data'])
      await run('podman', ['volume', 'rm', '--force', `${project}_${volume}`]);
    await run('podman', ['network', 'rm', '--force', `${project}_default`]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads compose.yaml with the trial variables: each service run with its volume, variables and command', async () => {
    copyFileSync(join(ROOT, 'compose.yaml'), join(dir, 'compose.yaml'));
    copyFileSync(join(ROOT, 'compose.trial.env'), join(dir, '.env'));
    const result = await run(
      'podman-compose',
      ['-p', project, '-f', join(dir, 'compose.yaml'), '--dry-run', 'up', '--no-build', '--detach'],
      { env: podmanEnv() },
    );
    assert.equal(result.code, 0, result.stderr);
    const runs = result.stdout.split('\n').filter((line) => line.startsWith('podman run '));
    const runOf = (service: string) => {
      const line = runs.find((l) => l.includes(`--name=${project}_${service}_1 `));
      assert.ok(line, `podman-compose runs ${service}: ${result.stdout}`);
      return line;
    };
    const postgres = runOf('postgres');
    assert.ok(postgres.includes(`-v ${project}_postgres-data:/var/lib/postgresql/data`), postgres);
    assert.ok(postgres.includes('--healthcheck-command'), postgres);
    const proxy = runOf('proxy');
    for (const part of [
      `--env-file ${join(dir, '.env')}`,
      '-e DATABASE_URL=postgres://jobboard:trial@postgres:5432/jobboard',
      `-v ${project}_proxy-data:/data`,
      '-p 8080:8080',
    ])
      assert.ok(proxy.includes(part), `${part} in ${proxy}`);
    assert.ok(proxy.endsWith(' localhost/jobboard-connector:latest proxy'), proxy);
    const sandbox = runOf('sandbox');
    assert.ok(sandbox.includes('--healthcheck-command'), sandbox);
    assert.ok(
      sandbox.endsWith(' localhost/jobboard-connector:latest sandbox --host 0.0.0.0 --port 4010 --seed demo --admin'),
      sandbox,
    );
  });
});
