// The size budgets `npm run lint` enforces, on code laid out by Prettier: a
// source file of at most 450 lines, a function of at most 120 lines of code.
// The formatter's check is what keeps the count honest: code joined onto
// fewer, longer lines to fit a budget is refused as unformatted. Tests are
// outside the budgets (a describe callback is naturally long). Import cycles,
// the third check of `npm run lint`, are tested in import-boundaries.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The size rules' messages for `code` linted as the file at `filePath` (relative to the repository). */
async function budgetProblems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'max-lines' || m.ruleId === 'max-lines-per-function')
    .map((m) => `${m.ruleId}: ${m.message}`);
}

/** A module of exactly `lines` lines (the last one ends with a newline, as Prettier writes it). */
const moduleOf = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `export const value${i} = ${i};`).join('\n') + '\n';

/**
 * A module holding one function of `codeLines` lines of code, from its
 * signature to its closing brace, with blank lines and comments between
 * them that the budget does not count.
 */
function functionOf(codeLines: number): string {
  const body = Array.from({ length: codeLines - 4 }, (_, i) =>
    i % 10 === 0 ? `\n  // Step ${i}.\n  total += ${i};` : `  total += ${i};`,
  );
  return ['export function sum(): number {', '  let total = 0;', ...body, '  return total;', '}', ''].join('\n');
}

/** Whether `code`, as the file at `filePath`, is formatted as `prettier --check .` wants it. */
async function formatted(code: string, filePath: string): Promise<boolean> {
  const path = `${root}${filePath}`;
  const info = await prettier.getFileInfo(path, { ignorePath: `${root}.prettierignore` });
  assert.equal(info.ignored, false, `${filePath} is checked by prettier --check .`);
  const options = await prettier.resolveConfig(path);
  assert.ok(options !== null, "the repository's Prettier configuration is found");
  return prettier.check(code, { ...options, filepath: path });
}

describe('npm run lint', () => {
  it('runs the formatter check, ESLint and the import cycle check', () => {
    const { scripts } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> };
    assert.match(
      scripts.lint ?? '',
      /^prettier --check\b.* \. && eslint \. && node server\/scripts\/check-import-cycles\.ts$/,
    );
  });
});

describe('the formatter check', () => {
  const filePath = 'server/proxy/some-module.ts';

  it('refuses code that is not laid out as Prettier writes it, and takes the same code once it is', async () => {
    assert.equal(await formatted('export const a = {b:1};\n', filePath), false);
    assert.equal(await formatted('export const a = { b: 1 };\n', filePath), true);
  });

  it('refuses a statement joined onto a line longer than 120 characters, so lines cannot be saved that way', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `argument${i}`);
    const call = `export const joined = [${names.map((n) => `'${n}'`).join(', ')}];\n`;
    assert.ok(call.length > 121, `${call.length} characters`);
    assert.equal(await formatted(call, filePath), false);
    const laidOut = `export const joined = [\n${names.map((n) => `  '${n}',`).join('\n')}\n];\n`;
    assert.equal(await formatted(laidOut, filePath), true);
  });
});

describe('the file budget', () => {
  it('refuses a source file of 451 lines, counting blank lines and comments, and takes one of 450', async () => {
    assert.deepEqual(await budgetProblems(moduleOf(450), 'server/proxy/some-module.ts'), []);
    assert.deepEqual(await budgetProblems(moduleOf(451), 'server/proxy/some-module.ts'), [
      'max-lines: File has too many lines (451). Maximum allowed is 450.',
    ]);
    const withComments = moduleOf(449).replace('\n', '\n// A comment.\n\n');
    assert.equal((await budgetProblems(withComments, 'widget/src/internal/some-module.ts')).length, 1);
  });

  it("holds for the widget, the scripts and a test helper beside the sources, but not for tests and test/ folders' files", async () => {
    for (const source of [
      'widget/src/internal/some-module.ts',
      'server/scripts/some-script.ts',
      'server/proxy/some-subject.test-support.ts',
    ])
      assert.equal((await budgetProblems(moduleOf(451), source)).length, 1, source);
    for (const test of [
      'server/proxy/some-module.test.ts',
      'test/some-helper.ts',
      'server/openapi/test/some-fixture.ts',
      'widget/test/some-helper.ts',
    ])
      assert.deepEqual(await budgetProblems(moduleOf(451), test), [], test);
  });
});

describe('the function budget', () => {
  it('refuses a function of 121 lines of code and takes one of 120, blank lines and comments aside', async () => {
    assert.deepEqual(await budgetProblems(functionOf(120), 'server/proxy/some-module.ts'), []);
    assert.deepEqual(await budgetProblems(functionOf(121), 'server/proxy/some-module.ts'), [
      "max-lines-per-function: Function 'sum' has too many lines (121). Maximum allowed is 120.",
    ]);
  });

  it('counts the functions a function holds as its own lines', async () => {
    const inner = functionOf(100).replace('export function sum', 'function inner');
    const outer = `export function outer(): () => number {\n${inner
      .split('\n')
      .map((line) => (line === '' ? line : `  ${line}`))
      .join('\n')}\n  return inner;\n}\n`;
    const problems = await budgetProblems(outer, 'server/proxy/some-module.ts');
    assert.equal(problems.length, 0, 'the outer function holds 103 lines of code');
    const larger = outer.replace('  let total = 0;', '  let total = 0;\n' + '  total += 1;\n'.repeat(18));
    assert.deepEqual(await budgetProblems(larger, 'server/proxy/some-module.ts'), [
      "max-lines-per-function: Function 'outer' has too many lines (121). Maximum allowed is 120.",
    ]);
  });

  it('does not hold for tests, whose describe callbacks are long', async () => {
    assert.deepEqual(await budgetProblems(functionOf(200), 'server/proxy/some-module.test.ts'), []);
    assert.deepEqual(await budgetProblems(functionOf(200), 'test/some-helper.ts'), []);
  });
});
