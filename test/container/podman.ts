// Podman for the container tests, on a machine that reaches no registry of
// images: a Debian base made by debootstrap, a Node image on it (npm's
// registry, Containerfile.node-base), then the project's own Containerfile
// built on that Node image. The two base images are kept by tag between runs
// and built only when missing; the project's image is built every run
// (podman's layer cache makes an unchanged step free).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
const NODE_BASE_FILE = join(import.meta.dirname, 'Containerfile.node-base');
const BASE_IMAGE = 'localhost/jobboard-base:bookworm';
/** Node 24, as the official image the Containerfile defaults to. */
const NODE_MAJOR = '24';
/** Debian's folder of locally added CA certificates: HTTPS to npm's registry may be signed by one of them. */
const LOCAL_CA_DIR = '/usr/local/share/ca-certificates';

/** Why the container tests cannot run here, or undefined when they can. */
export function missingTools(): string | undefined {
  const missing = ['podman', 'runc'].filter((tool) => spawnSync(tool, ['--version']).status !== 0);
  if (missing.length === 0) return undefined;
  return `${missing.join(' and ')} not installed (apt-get install -y podman runc debootstrap podman-compose; CI installs them)`;
}

// runc, not crun (which fails on these hybrid cgroups), and ulimits podman's defaults would ask more than the machine grants.
const CONTAINERS_CONF = `[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
`;

let confPath: string | undefined;

/** The environment of every podman command: its settings from a containers.conf of the tests' own. */
export function podmanEnv(): NodeJS.ProcessEnv {
  if (confPath === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'jbc-podman-'));
    confPath = join(dir, 'containers.conf');
    writeFileSync(confPath, CONTAINERS_CONF);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return { ...process.env, CONTAINERS_CONF: confPath };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (podman with podmanEnv()); stdin from `input` when given. */
export function run(
  command: string,
  args: string[],
  options: { input?: NodeJS.ReadableStream; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? (command === 'podman' ? podmanEnv() : process.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    if (options.input === undefined) child.stdin.end();
    else options.input.pipe(child.stdin);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a command that must succeed; fails with its last lines of output. */
export async function must(command: string, args: string[], options?: Parameters<typeof run>[2]): Promise<string> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`${command} ${args.join(' ')} exited with ${result.code}:\n${tail}`);
  }
  return result.stdout;
}

export const podman = (...args: string[]) => must('podman', args);

async function imageExists(tag: string): Promise<boolean> {
  return (await run('podman', ['image', 'exists', tag])).code === 0;
}

/** The bookworm mirror apt uses here (sources.list, or a deb822 .sources file), for debootstrap. */
export function debianMirror(): string {
  const files = ['/etc/apt/sources.list'];
  const dir = '/etc/apt/sources.list.d';
  if (existsSync(dir))
    files.push(
      ...readdirSync(dir)
        .filter((name) => name.endsWith('.list') || name.endsWith('.sources'))
        .map((name) => join(dir, name)),
    );
  for (const file of files.filter((f) => existsSync(f))) {
    const text = readFileSync(file, 'utf8');
    if (file.endsWith('.sources')) {
      for (const stanza of text.split(/\n\s*\n/)) {
        const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'mi').exec(stanza)?.[1]?.trim().split(/\s+/);
        if (field('Types')?.includes('deb') && field('Suites')?.includes('bookworm')) {
          const uri = field('URIs')?.[0];
          if (uri !== undefined) return uri;
        }
      }
    } else {
      const line = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m.exec(text);
      if (line) return line[1]!;
    }
  }
  throw new Error('No bookworm mirror in /etc/apt/sources.list or /etc/apt/sources.list.d: debootstrap needs one.');
}

/** Debian bookworm (minbase) imported as an image; apt's downloads and lists left out. */
async function buildDebianBase(): Promise<void> {
  if (spawnSync('debootstrap', ['--version']).status !== 0)
    throw new Error(`${BASE_IMAGE} is missing and debootstrap is not installed (apt-get install -y debootstrap)`);
  const dir = mkdtempSync(join(tmpdir(), 'jbc-debootstrap-'));
  try {
    await must('debootstrap', ['--variant=minbase', 'bookworm', join(dir, 'root'), debianMirror()]);
    const tar = spawn(
      'tar',
      [
        '-C',
        join(dir, 'root'),
        '--exclude=./var/cache/apt/archives/*.deb',
        '--exclude=./var/lib/apt/lists/*',
        '-c',
        '.',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await must('podman', ['import', '-', BASE_IMAGE], { input: tar.stdout });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Node image's tag: a new Containerfile.node-base is a new image. */
function nodeImageTag(): string {
  const digest = createHash('sha256').update(readFileSync(NODE_BASE_FILE)).digest('hex').slice(0, 12);
  return `localhost/jobboard-node:${NODE_MAJOR}-${digest}`;
}

/** The machine's own CA certificates, read-only, for the HTTPS a build makes; none when it has none. */
function caMount(): string[] {
  return existsSync(LOCAL_CA_DIR) ? ['-v', `${LOCAL_CA_DIR}:${LOCAL_CA_DIR}:ro`] : [];
}

/** Node on the Debian base, built when missing (or when the base was just made again); answers its tag. */
export async function nodeImage(): Promise<string> {
  const tag = nodeImageTag();
  const freshBase = !(await imageExists(BASE_IMAGE));
  if (freshBase) await buildDebianBase();
  if (freshBase || !(await imageExists(tag))) {
    await podman(
      'build',
      '--format',
      'docker',
      '--pull=never',
      ...caMount(),
      '--build-arg',
      `BASE_IMAGE=${BASE_IMAGE}`,
      '--build-arg',
      `NODE_MAJOR=${NODE_MAJOR}`,
      '-t',
      tag,
      '-f',
      NODE_BASE_FILE,
      import.meta.dirname,
    );
  }
  return tag;
}

/**
 * The project's Containerfile built on `nodeImage` as NODE_IMAGE. npm's cache
 * of this machine is lent to the build's `npm ci` (mounted, not copied: no
 * layer keeps it), so packages the machine has are not downloaded again.
 */
export async function buildProxyImage(nodeImage: string, tag: string): Promise<void> {
  const npmCache = process.env.npm_config_cache ?? join(homedir(), '.npm');
  await podman(
    'build',
    '--format',
    'docker',
    '--pull=never',
    ...(existsSync(npmCache) ? ['-v', `${npmCache}:/root/.npm`] : []),
    // The runtime stage's first steps (tini, the user) while the build stage runs.
    '--jobs',
    '2',
    '--build-arg',
    `NODE_IMAGE=${nodeImage}`,
    '-t',
    tag,
    '-f',
    join(ROOT, 'Containerfile'),
    ROOT,
  );
}
