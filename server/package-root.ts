// The package's own folder, found from this file whether it runs from the
// sources (server/) in a checkout or compiled (dist/server/) in an installed
// package, so files shipped beside the code (the built widget, the demo
// page, package.json) are found the same way in both.
import { existsSync } from 'node:fs';
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
