// Writes the type declarations of @jobboard-connector/widget (its `.` and
// `./react` entries) into widget/dist/types/, as `tsc -p
// widget/tsconfig.npm.json` would, with one difference: no declaration
// imports zod.
//
// The widget types the proxy's answers by `import type` of the proxy's
// public contract (server/public-api/), whose types are `z.infer` of its zod
// schemas. Declared as written, they would need zod in every application that
// type-checks against the package, and zod is no dependency of it (nothing
// of zod runs in the browser). So each type alias written with zod is
// declared as the type the compiler infers for it (an object type, unions of
// literals), and the schemas themselves, values the widget never imports at
// run time, are left out of the declarations.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { reachedDeclarations } from '../../server/scripts/declaration-files.ts';

const WIDGET = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = `${WIDGET}tsconfig.npm.json`;
/** Written with zod: `z.infer<…>`, `z.ZodObject<…>`, … */
const WITH_ZOD = /\bz\./;
const FLAGS =
  ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias | ts.TypeFormatFlags.UseFullyQualifiedType;

function fail(diagnostics: readonly ts.Diagnostic[]): never {
  const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => WIDGET, getNewLine: () => '\n' };
  throw new Error(ts.formatDiagnostics(diagnostics, host));
}

const parsed = ts.getParsedCommandLineOfConfigFile(
  CONFIG,
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) },
);
if (parsed === undefined) throw new Error(`${CONFIG} cannot be read`);
const program = ts.createProgram(parsed.fileNames, parsed.options);
const checker = program.getTypeChecker();
const problems = ts.getPreEmitDiagnostics(program);
if (problems.length > 0) fail(problems);

/** Each zod-written type alias of a source file, by name: the type the compiler infers for it. */
function inferredAliases(source: ts.SourceFile): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const statement of source.statements) {
    if (ts.isTypeAliasDeclaration(statement) && WITH_ZOD.test(statement.type.getText(source))) {
      aliases.set(
        statement.name.text,
        checker.typeToString(checker.getTypeAtLocation(statement.name), statement, FLAGS),
      );
    }
  }
  return aliases;
}

type Edit = { from: number; to: number; text: string };

function applyEdits(text: string, edits: Edit[]): string {
  let result = text;
  for (const edit of edits.sort((a, b) => b.from - a.from)) {
    result = result.slice(0, edit.from) + edit.text + result.slice(edit.to);
  }
  return result;
}

/** `text` without the names it imports and no longer uses (a schema an inferred alias named), nor imports left empty. */
function withoutUnusedImports(text: string): string {
  const declaration = ts.createSourceFile('d.ts', text, ts.ScriptTarget.Latest, true);
  const edits: Edit[] = [];
  for (const statement of declaration.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings) || statement.importClause?.name) continue;
    const rest = text.slice(0, statement.pos) + text.slice(statement.end);
    const used = bindings.elements.filter((e) => new RegExp(`\\b${e.name.text}\\b`).test(rest));
    if (used.length === bindings.elements.length) continue;
    const from = statement.getStart(declaration);
    const names = used.map((e) => e.getText(declaration)).join(', ');
    const module = statement.moduleSpecifier.getText(declaration);
    edits.push({ from, to: statement.end, text: used.length === 0 ? '' : `import type { ${names} } from ${module};` });
  }
  return applyEdits(text, edits);
}

/** `text`, a declaration file, without zod: its import gone, its schemas and their helpers gone, its zod-written aliases inferred. */
function withoutZod(text: string, aliases: Map<string, string>, name: string): string {
  const declaration = ts.createSourceFile('d.ts', text, ts.ScriptTarget.Latest, true);
  const edits: Edit[] = [];
  for (const statement of declaration.statements) {
    const from = statement.getStart(declaration, true);
    if (ts.isImportDeclaration(statement)) {
      if ((statement.moduleSpecifier as ts.StringLiteral).text === 'zod')
        edits.push({ from, to: statement.end, text: '' });
    } else if (ts.isTypeAliasDeclaration(statement) && aliases.has(statement.name.text)) {
      const type = aliases.get(statement.name.text)!;
      edits.push({ from: statement.type.getStart(declaration), to: statement.type.end, text: type });
    } else if (WITH_ZOD.test(statement.getText(declaration))) {
      edits.push({ from, to: statement.end, text: '' });
    }
  }
  const result = withoutUnusedImports(applyEdits(text, edits));
  if (WITH_ZOD.test(result.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''))) {
    throw new Error(`${name} still names zod after the rewrite: declare its types without zod`);
  }
  return result.replace(/\n{3,}/g, '\n\n');
}

const declarations = new Map<string, string>();
const emitted = program.emit(
  undefined,
  (fileName, text, _bom, _onError, sources) => {
    const source = sources?.[0];
    const zodFree =
      source !== undefined && /['"]zod['"]/.test(text)
        ? withoutZod(text, inferredAliases(source), relative(WIDGET, fileName))
        : text;
    declarations.set(fileName, zodFree);
  },
  undefined,
  true,
);
if (emitted.diagnostics.length > 0) fail(emitted.diagnostics);

// What the entries' declarations reach, now that no schema is declared: the rest is not written.
const entries = parsed.fileNames.map((f) =>
  resolve(parsed.options.outDir!, relative(parsed.options.rootDir!, f)).replace(/\.ts$/, '.d.ts'),
);
const reached = reachedDeclarations(entries, (file) => declarations.get(file));
rmSync(parsed.options.outDir!, { recursive: true, force: true });
for (const file of reached) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, declarations.get(file)!);
}
console.log(`widget/dist/types: ${reached.size} declaration files, none naming zod`);
