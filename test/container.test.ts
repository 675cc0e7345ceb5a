// The proxy's container image (Containerfile), built and run as a partner
// runs it: podman builds it on a Node image (made here from Debian's packages
// and npm's registry, since no registry of images is reachable), runs it with
// a named volume as DATA_DIR against a sandbox this test starts on the host,
// and the test applies through the published port, checks the healthcheck
// and the user, then stops it with SIGTERM while a delivery is under way.
// Needs podman and runc (and debootstrap the first time: the base images are
// kept by tag); skipped without them outside CI, like the PostgreSQL tests
// without their server, and failed in CI.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_KEYS, startSandbox } from '../server/sandbox/index.ts';
import type { RunningSandbox } from '../server/sandbox/index.ts';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { BOARD_ORIGIN, apply, fetch, upstreamApplications, validFields } from './proxy-apply.test-support.ts';
import { buildProxyImage, missingTools, nodeImage, podman, run } from './container/podman.ts';

const missing = missingTools();
if (missing !== undefined && process.env.CI === 'true')
  throw new Error(`CI=true but the container test cannot run: ${missing}. .ci/run installs them.`);
const skip = missing ?? false;

const IMAGE = 'localhost/jobboard-connector:container-test';
const NAME = `jbc-container-test-${process.pid}`;
const VOLUME = `${NAME}-data`;
/** A second container, stopped while it starts. */
const STARTING = `${NAME}-starting`;
/** Long enough for a cold start: debootstrap, Node from npm's registry, npm ci and the build (about 7 minutes here). */
const BUILD_TIMEOUT_MS = 20 * 60_000;
/** How long each call to the service waits while a delivery is to be in flight at the stop. */
const UPSTREAM_DELAY_MS = 2_000;
/** Calls to the service that wait so: more than the delivery makes. */
const FAULTS = 100;

/** The proxy's variables for the demo job board of a sandbox on the host; the image's own PORT, HOST and DATA_DIR stay. */
function proxyVariables(sandbox: RunningSandbox): string[] {
  const env: Record<string, string> = {
    // The host as the container sees it (podman's name for it on the default network).
    UPSTREAM_URL: `http://host.containers.internal:${sandbox.port}/v2`,
    UPSTREAM_PRIVATE_KEY: DEMO_KEYS.jobboard.private_key,
    UPSTREAM_SECRET_KEY: DEMO_KEYS.jobboard.secret_key,
    JOBBOARD_CHANNEL: DEMO_KEYS.jobboard.channel,
    ALLOWED_ORIGINS: BOARD_ORIGIN,
  };
  return Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
}

/** Applications the proxy's log says it stored (event application_stored). */
async function storedCount(): Promise<number> {
  return ((await podman('logs', NAME)).match(/"event":"application_stored"/g) ?? []).length;
}

/** `jobboard-connector outbox list --json` run by the image on the data volume: one row per application. */
async function outboxRows(): Promise<{ reference: string; status: string; personal_data: boolean }[]> {
  const out = await podman('run', '--rm', '-v', `${VOLUME}:/data`, IMAGE, 'outbox', 'list', '--json');
  return out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { reference: string; status: string; personal_data: boolean });
}

describe("the proxy's container image", { skip }, () => {
  let sandbox: RunningSandbox;
  let proxyUrl: string;
  let campaignId: number;
  const sandboxAdmin = () => ({ origin: `http://127.0.0.1:${sandbox.port}` });

  before(
    async () => {
      const started = Date.now();
      const base = await nodeImage();
      const built = Date.now();
      await buildProxyImage(base, IMAGE);
      // What a run spent where: the base images are built once, the project's image as its sources change.
      console.log(
        `# container test: Node image ${base} in ${Math.round((built - started) / 1000)} s, ${IMAGE} in ${Math.round((Date.now() - built) / 1000)} s`,
      );
      // On every address: the container reaches the host through podman's bridge, not its loopback.
      sandbox = await startSandbox({ port: 0, host: '0.0.0.0', seed: 'demo', admin: true });
      await podman('volume', 'create', VOLUME);
      await podman(
        'run',
        '--detach',
        '--name',
        NAME,
        '--publish',
        '127.0.0.1::8080',
        '--volume',
        `${VOLUME}:/data`,
        ...proxyVariables(sandbox),
        IMAGE,
      );
      const published = (await podman('port', NAME, '8080/tcp')).trim();
      proxyUrl = `http://${published}`;
    },
    { timeout: BUILD_TIMEOUT_MS },
  );

  after(async () => {
    await run('podman', ['rm', '--force', '--volumes', NAME]);
    await run('podman', ['rm', '--force', '--volumes', STARTING]);
    await run('podman', ['volume', 'rm', '--force', VOLUME]);
    await sandbox?.close();
  });

  it('declares a non-root user, the data volume, the port, SIGTERM and a healthcheck on /readyz, and holds no key', async () => {
    const [image] = JSON.parse(await podman('image', 'inspect', IMAGE)) as {
      Config: {
        User: string;
        Env: string[];
        ExposedPorts: Record<string, unknown>;
        Volumes: Record<string, unknown>;
        StopSignal: string;
      };
      Healthcheck?: { Test: string[] };
    }[];
    const config = image!.Config;
    assert.equal(config.User, 'jobboard');
    assert.deepEqual(Object.keys(config.Volumes), ['/data']);
    assert.ok(config.Env.includes('DATA_DIR=/data'));
    assert.deepEqual(Object.keys(config.ExposedPorts), ['8080/tcp']);
    assert.equal(config.StopSignal, 'SIGTERM');
    assert.match(image!.Healthcheck?.Test.join(' ') ?? 'none', /\/readyz/);
    const names = config.Env.map((entry) => entry.split('=')[0]);
    for (const secret of ['UPSTREAM_PRIVATE_KEY', 'UPSTREAM_SECRET_KEY', 'DATABASE_URL', 'WEBHOOK_SECRET'])
      assert.ok(!names.includes(secret), `${secret} is not baked into the image`);
  });

  it('reports healthy once the catalogue is synced, every process running as a user other than root', async () => {
    await eventually(async () => (await run('podman', ['healthcheck', 'run', NAME])).code === 0, {
      timeoutMs: 90_000,
      intervalMs: 1_000,
      what: `podman healthcheck run ${NAME} to report healthy`,
    });
    // Each process of the container, its real uid and its command line.
    const listing = await podman(
      'exec',
      NAME,
      'sh',
      '-c',
      'for p in /proc/[0-9]*; do printf "%s %s\\n" "$(grep "^Uid:" $p/status | cut -f2)" "$(tr "\\0" " " < $p/cmdline)"; done',
    );
    const processes = listing
      .trim()
      .split('\n')
      .map((line) => ({ uid: Number(line.split(' ')[0]), command: line.slice(line.indexOf(' ') + 1) }));
    assert.ok(
      processes.some((p) => p.command.includes('/app/dist/server/cli.js proxy')),
      `the proxy is among them: ${listing}`,
    );
    assert.deepEqual(
      processes.filter((p) => p.uid === 0),
      [],
      'no process runs as root',
    );
    const list = (await (await fetch(`${proxyUrl}/api/campaigns`, { headers: { origin: BOARD_ORIGIN } })).json()) as {
      items: { id: number }[];
    };
    campaignId = list.items[0]!.id;
  });

  it('takes an application through its published port and delivers it to the service', async () => {
    const fields = validFields(campaignId);
    const answer = await apply(proxyUrl, { fields });
    assert.equal(answer.status, 201, answer.text);
    assert.equal(upstreamApplications(sandbox, fields.email).length, 1);
  });

  it('on SIGTERM finishes the application in flight, delivers it and exits 0, leaving nothing queued', async () => {
    // Every call to the service now waits: the delivery is under way when the stop comes.
    await admin(sandboxAdmin(), 'POST', '/faults', { count: FAULTS, delay_ms: UPSTREAM_DELAY_MS });
    const fields = validFields(campaignId);
    const answered = apply(proxyUrl, { fields });
    await eventually(async () => (await storedCount()) === 2 && sandbox.context.faults.remaining < FAULTS, {
      timeoutMs: 30_000,
      what: 'the second application to be stored and its delivery to be waiting on the service',
    });
    const stopping = Date.now();
    await podman('stop', '--time', '60', NAME);
    const stopMs = Date.now() - stopping;

    const answer = await answered;
    assert.equal(answer.status, 201, `the candidate is answered "delivered" during the drain: ${answer.text}`);
    const state = JSON.parse(await podman('inspect', '--format', '{{json .State}}', NAME)) as { ExitCode: number };
    assert.equal(state.ExitCode, 0, 'stopped by its own drain, not killed');
    assert.ok(stopMs < 30_000, `drained in ${stopMs} ms`);
    const logs = await run('podman', ['logs', NAME]);
    assert.match(logs.stderr + logs.stdout, /SIGTERM: finishing in-flight requests/);
    assert.match(logs.stderr + logs.stdout, /proxy stopped/);
    assert.equal(upstreamApplications(sandbox, fields.email).length, 1);

    const rows = await outboxRows();
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.equal(row.status, 'delivered', `${row.reference} delivered`);
      assert.equal(row.personal_data, false, `${row.reference} keeps no personal data`);
    }
  });

  // Before the proxy handles SIGTERM (it does once started), the signal's default ends Node, unless
  // Node is PID 1: the kernel spares PID 1 what it has no handler for, and the stop would wait out its timeout.
  it('stopped while it starts, ends at once: Node is not PID 1, the image has an init', async () => {
    // The start check's first call to the service waits: the proxy is still starting when stopped.
    await admin(sandboxAdmin(), 'POST', '/faults', { count: FAULTS, delay_ms: 60_000 });
    await podman('run', '--detach', '--name', STARTING, ...proxyVariables(sandbox), IMAGE);
    await eventually(() => sandbox.context.faults.remaining < FAULTS, {
      timeoutMs: 30_000,
      what: "the starting proxy's first call to the service",
    });
    const stopping = Date.now();
    await podman('stop', '--time', '30', STARTING);
    const stopMs = Date.now() - stopping;
    await admin(sandboxAdmin(), 'POST', '/faults', { count: 0 });
    const state = JSON.parse(await podman('inspect', '--format', '{{json .State}}', STARTING)) as { ExitCode: number };
    assert.equal(state.ExitCode, 143, 'ended by SIGTERM (128 + 15), not killed at the timeout (137)');
    assert.ok(stopMs < 10_000, `stopped in ${stopMs} ms`);
  });
});
