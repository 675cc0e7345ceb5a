// `npm run lint`'s cycle check: no module of ours imports itself through
// others, by type imports too (ESLint's cycle rules skip those, yet a cycle of
// types still ties modules that cannot be read, tested or moved apart). Each
// file's imports are read by TypeScript's own pre-parser; a cycle is a
// strongly connected set of files (Tarjan's algorithm). Exits 1 naming each.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|mts|mjs|js)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'generated']);

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (SKIPPED.has(name) || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return filesUnder(path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files of ours a file imports (relative specifiers that name a file). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name))
    .filter((path) => existsSync(path) && statSync(path).isFile());
}

/** Each set of two or more files that import each other, directly or through others. */
export function importCycles(roots: readonly string[]): string[][] {
  const files = roots.flatMap((root) => filesUnder(resolve(root)));
  const edges = new Map(files.map((file) => [file, importsOf(file)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

if (import.meta.main) {
  const roots = process.argv.length > 2 ? process.argv.slice(2) : ['server', 'widget', 'test'];
  const cycles = importCycles(roots);
  for (const cycle of cycles)
    console.error(
      `Import cycle: ${cycle.map((f) => relative(process.cwd(), f)).join(', ')}: move what they share into a module each imports.`,
    );
  process.exitCode = cycles.length === 0 ? 0 : 1;
}
