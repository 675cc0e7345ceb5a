// npm run build:wordpress: the WordPress plugin (wordpress/jobboard-connector/)
// as the zip a site uploads in Plugins → Add New → Upload Plugin, at
// dist/wordpress/jobboard-connector.zip (or in the folder given with --out).
// The zip holds the plugin's folder, as WordPress expects. Its version is the
// package's: the plugin's header and its readme.txt's Stable tag must say it.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { deflateRawSync } from 'node:zlib';
import { packagePath, packageVersion } from '../package-root.ts';
import { zip } from '../test/portable-files.ts';

export const PLUGIN_SLUG = 'jobboard-connector';
const PLUGIN_DIR = packagePath('wordpress', PLUGIN_SLUG);

/** The plugin's files, relative to its folder, in a stable order (no dotfiles). */
export function pluginFiles(dir = PLUGIN_DIR): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        !relative(dir, join(entry.parentPath, entry.name))
          .split(sep)
          .some((part) => part.startsWith('.')),
    )
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** Fails unless the plugin's header and its readme.txt say the package's version. */
function checkVersions(dir: string): void {
  const version = packageVersion();
  const header = /^ \* Version:\s*(\S+)$/m.exec(readFileSync(join(dir, `${PLUGIN_SLUG}.php`), 'utf8'))?.[1];
  const stable = /^Stable tag:\s*(\S+)$/m.exec(readFileSync(join(dir, 'readme.txt'), 'utf8'))?.[1];
  if (header !== version || stable !== version)
    throw new Error(
      `The plugin's version must be the package's (${version}): its header says ${header ?? 'none'}, readme.txt's Stable tag ${stable ?? 'none'}. Set both to ${version}.`,
    );
}

/** Writes the zip into `outDir`; answers its path. */
export function buildWordpressPlugin(outDir = packagePath('dist', 'wordpress')): string {
  checkVersions(PLUGIN_DIR);
  const entries = Object.fromEntries(
    pluginFiles().map((file) => [`${PLUGIN_SLUG}/${file}`, new Uint8Array(readFileSync(join(PLUGIN_DIR, file)))]),
  );
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, `${PLUGIN_SLUG}.zip`);
  writeFileSync(path, zip(entries, { deflate: (plain) => deflateRawSync(plain) }));
  return path;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  console.log(`Wrote ${relative(process.cwd(), buildWordpressPlugin(values.out))}`);
}
