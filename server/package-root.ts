// The package's own folder, found from this file whether it runs from the
// sources (server/) in a checkout or compiled (dist/server/) in an installed
// package, so files shipped beside the code (the built widget, the demo
// page, package.json) are found the same way in both.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${from}: the jobboard-connector package is incomplete.`);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the package, e.g. packagePath('dist', 'widget', 'widget.js'). */
export function packagePath(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}

/** The package's version, from its package.json ('0.0.0' if it cannot be read). */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
