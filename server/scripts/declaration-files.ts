// Which declaration files a package ships: those its entries (the `types` of
// package.json `exports`) reach through relative imports and re-exports,
// which a TypeScript user of the package reads. The compiler writes one for
// every module it compiles; the others describe modules nobody can import
// (`exports` closes deep imports) and would only weigh on every install.
import { dirname, resolve } from 'node:path';

/** `from './x.ts'`, `import('./x.ts')`, `import './x.ts'`: the specifiers that name another file of the package. */
const RELATIVE_SPECIFIER = /(?:from\s+|import\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
/** `export { a } from './x.ts'`, `export type { A } from …`, `export * from …`: what a module offers of another. */
const RE_EXPORT = /^export\s[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The declaration file that `specifier` in the declaration file `from` names (declarations keep `.ts`, or `.js`). */
function declarationOf(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.(?:[cm]?js|ts)$/, '.d.ts');
}

/** Every declaration file reached from `entries` (absolute paths), reading each with `read` (undefined: no such file). */
export function reachedDeclarations(entries: string[], read: (file: string) => string | undefined): Set<string> {
  const reached = new Set<string>();
  for (const pending = [...entries]; pending.length > 0;) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    const text = read(file);
    if (text === undefined) continue;
    reached.add(file);
    for (const match of text.matchAll(RELATIVE_SPECIFIER)) pending.push(declarationOf(file, match[1]!));
  }
  return reached;
}

/** The entries and the modules they re-export from: those whose names a user of the package imports. */
export function exportedDeclarations(entries: string[], read: (file: string) => string | undefined): Set<string> {
  const exported = new Set(entries);
  for (const entry of entries) {
    for (const match of (read(entry) ?? '').matchAll(RE_EXPORT)) exported.add(declarationOf(entry, match[1]!));
  }
  return exported;
}
