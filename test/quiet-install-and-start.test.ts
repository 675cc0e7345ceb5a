// What a newcomer reads at `npm install && npm start` is what matters: no
// warning to read past. npm 11 lists every dependency whose install scripts
// package.json's allowScripts does not cover; `npm start`'s builds run at
// `--logLevel warn` and must print nothing (no bundler timing notes).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: { start: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
};

/** The packages of the lockfile with install scripts: name and version. */
function withInstallScripts(): { name: string; version: string }[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
    .map(([path, entry]) => ({
      name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: entry.version ?? '',
    }));
}

describe('npm install', () => {
  it('has every dependency with install scripts allowed or denied in allowScripts, so npm warns of none', () => {
    const policy = pkg.allowScripts ?? {};
    const uncovered = withInstallScripts().filter(
      ({ name, version }) => typeof policy[name] !== 'boolean' && typeof policy[`${name}@${version}`] !== 'boolean',
    );
    assert.deepEqual(uncovered, [], 'add each to package.json allowScripts (true to run its script, false to skip it)');
  });

  it('keeps no allowScripts entry for a package the lockfile no longer installs with scripts', () => {
    const names = new Set(withInstallScripts().map(({ name }) => name));
    assert.deepEqual(
      Object.keys(pkg.allowScripts ?? {}).filter((key) => !names.has(key.replace(/(.)@.*$/, '$1'))),
      [],
    );
  });
});

describe('npm start', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'jbc-quiet-build-'));
  after(() => rmSync(outDir, { recursive: true, force: true }));

  it('builds the widget and its server renderer without printing anything', async () => {
    // The start script's own build commands, each into a folder of its own (dist/ stays the other tests').
    const builds = pkg.scripts.start
      .split('&&')
      .map((step) => step.trim())
      .filter((step) => step.startsWith('vite build'));
    assert.equal(builds.length, 2, pkg.scripts.start);
    for (const [i, build] of builds.entries()) {
      const args = [...build.split(/\s+/).slice(1), '--outDir', join(outDir, String(i))];
      const output = await new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          [join(ROOT, 'node_modules/vite/bin/vite.js'), ...args],
          { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
          (error, stdout, stderr) => {
            if (error !== null) reject(new Error(`${build} failed: ${stderr}`));
            else resolve(stdout + stderr);
          },
        );
      });
      assert.equal(output, '', `${build} printed`);
    }
  });
});
