// npm run build:server, after the compiler: the declaration files the
// package ships in dist/server/. Those no entry of package.json `exports`
// reaches are removed (declaration-files.ts). Of the others, the modules a
// user imports from (each entry and the modules it re-exports) keep their
// documentation, which an editor shows; the modules reached only through
// their types (the proxy's stores, its delivery, the sandbox's database…)
// are declared without comments: theirs are notes for whoever changes the
// code, read in the repository.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { packagePath } from '../package-root.ts';
import { exportedDeclarations, reachedDeclarations } from './declaration-files.ts';

const DIST = packagePath('dist', 'server');
const manifest = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
  exports: Record<string, string | { types?: string }>;
};
const entries = Object.values(manifest.exports)
  .map((target) => (typeof target === 'string' ? undefined : target.types))
  .filter((types): types is string => types?.startsWith('./dist/server/') === true)
  .map((types) => packagePath(types));
const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

const reached = reachedDeclarations(entries, read);
const documented = exportedDeclarations(entries, read);
const all = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'));
const unreached = all.filter((f) => !reached.has(join(DIST, f)));
for (const file of unreached) rmSync(join(DIST, file));

const printer = ts.createPrinter({ removeComments: true });
const bare = [...reached].filter((file) => !documented.has(file));
for (const file of bare) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  writeFileSync(file, printer.printFile(source));
}
console.log(
  `dist/server: ${reached.size} declaration files the exports reach (${reached.size - bare.length} documented), ${unreached.length} removed`,
);
