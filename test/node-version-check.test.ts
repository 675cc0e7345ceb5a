// The README's two commands on a Node older than package.json's engines (the
// Node 20 many machines ship): `npm start` and `npm test` stop at their first
// step with one line saying which Node is needed, which one runs, and where to
// get it, exit code 1, and build nothing. They run here as a newcomer runs
// them, with the old Node first in PATH (npm and the scripts then run on it).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = new URL('..', import.meta.url).pathname;
const { nodeVersionProblem } = createRequire(import.meta.url)('../server/scripts/check-node.cjs') as {
  nodeVersionProblem(version: string): string | null;
};
const ENGINES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines
  .node;

function versionOf(node: string): string | undefined {
  if (!existsSync(node)) return undefined;
  try {
    return execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** A Node on this machine too old for engines: any `node` in PATH, or the system's own. */
function findOldNode(): { path: string; version: string } | undefined {
  const candidates = new Set([
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter((d) => d !== '')
      .map((d) => join(d, 'node')),
    '/usr/bin/node',
    '/usr/local/bin/node',
  ]);
  for (const path of candidates) {
    const version = versionOf(path);
    if (version !== undefined && nodeVersionProblem(version) !== null) return { path, version };
  }
  return undefined;
}

const oldNode = findOldNode();
const preloadDir = mkdtempSync(join(tmpdir(), 'jbc-old-node-'));
after(() => rmSync(preloadDir, { recursive: true, force: true }));

/**
 * How to run npm on an old Node: that Node first in PATH. Without one (a
 * developer's machine with only a new Node), the current Node told to say it
 * is 20.20.2 at start; CI (CI=true) has the system's Node 20 and must use it.
 */
function oldNodeEnv(): { env: NodeJS.ProcessEnv; version: string } {
  if (oldNode !== undefined)
    return {
      env: { ...process.env, PATH: `${dirname(oldNode.path)}${delimiter}${process.env.PATH ?? ''}` },
      version: oldNode.version,
    };
  if (process.env.CI === 'true')
    assert.fail(
      `CI=true but no Node older than ${ENGINES} was found (in PATH, /usr/bin/node, /usr/local/bin/node): CI runs on a machine that ships one (Node 20); this test needs it to prove the check works there.`,
    );
  const preload = join(preloadDir, 'say-20.cjs');
  writeFileSync(preload, "Object.defineProperty(process.versions, 'node', { value: '20.20.2' });\n");
  return { env: { ...process.env, NODE_OPTIONS: `--require ${preload}` }, version: '20.20.2' };
}

function npm(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', [script], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

describe('the README commands on a Node older than package.json engines', () => {
  for (const script of ['start', 'test']) {
    it(`npm ${script} prints one line naming the Node needed, the one running and where to get it, and exits 1 before building anything`, async (t) => {
      const { env, version } = oldNodeEnv();
      t.diagnostic(
        oldNode === undefined
          ? 'no old Node here: the current Node says it is 20.20.2'
          : `on ${oldNode.path} (${version})`,
      );
      const { code, stdout, stderr } = await npm(script, env);
      assert.equal(code, 1, `exit code; stdout: ${stdout}\nstderr: ${stderr}`);
      const escaped = version.replaceAll('.', '\\.');
      assert.match(
        stderr,
        new RegExp(
          `^Node 22\\.18 or newer is needed; you have ${escaped}\\. Get Node 24 from https://nodejs\\.org/\\S+ \\(or run \`nvm install 24\`, or \`npx n 24\`\\), then run the command again\\.\\n$`,
        ),
      );
      // Besides that line, only npm's own header (`> jobboard-connector@… start`, `> the command`): nothing ran after the check.
      assert.deepEqual(
        stdout.split('\n').filter((line) => line !== '' && !line.startsWith('> ')),
        [],
      );
    });
  }

  it('the README states the requirement right under its two commands, as engines says it', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const below = /```sh\nnpm install && npm start[^\n]*\nnpm test[^\n]*\n```\n\n([^\n]+)/.exec(readme)?.[1];
    assert.equal(ENGINES, '>=22.18');
    assert.match(below ?? '', /^Requires Node 22\.18 or newer/);
  });
});

describe('the Node version check', () => {
  it('takes 22.18 and newer and refuses anything older, naming the version found', () => {
    for (const version of ['22.18.0', '22.19.1', '23.0.0', '24.21.0', '30.1.0'])
      assert.equal(nodeVersionProblem(version), null, version);
    for (const version of ['22.17.9', '22.0.0', '21.99.0', '20.20.2', '8.17.0'])
      assert.match(
        nodeVersionProblem(version) ?? '',
        new RegExp(`^Node 22\\.18 or newer is needed; you have ${version.replaceAll('.', '\\.')}\\. `),
        version,
      );
  });

  it('says nothing and exits 0 on the Node running the tests', () => {
    assert.equal(
      execFileSync(process.execPath, [join(ROOT, 'server/scripts/check-node.cjs')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
      '',
    );
  });
});
