// What the mutation gate mutates: the changed lines of a real git repository
// (committed, uncommitted and untracked), and which of them a group's globs take.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BASE_FILE,
  changedLines,
  changedMutateRanges,
  mutatedBy,
  recordBase,
  recordedBase,
  resolveCommit,
} from './changed.ts';

const STORAGE = ['src/storage/**/*.ts', '!src/storage/**/*.test.ts', '!src/storage/catalogue-*.ts'];

describe('the changed lines the mutation gate mutates', () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
  const write = (file: string, lines: string[]) => writeFileSync(join(repo, file), `${lines.join('\n')}\n`);
  let base: string;

  const STORE_BASE = [
    'export function limitOf(count: number): number {',
    '  const limit = Math.max(count, 10);',
    '  if (count < limit) return limit;',
    '  return count + 1;',
    '}',
    'export function nameOf(id: string): string {',
    "  return 'store-' + id.trim();",
    '}',
  ];
  const HELPERS_BASE = [
    'export function keyOf(prefix: string, id: number): string {',
    "  const key = [prefix, String(id), 'key'].join(':');",
    '  return key.toUpperCase();',
    '}',
    'export const LIMIT = 20;',
  ];

  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'jc-mutation-changed-'));
    git('init', '--quiet');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'Test');
    mkdirSync(join(repo, 'src/storage'), { recursive: true });
    write('src/storage/store.ts', STORE_BASE);
    write('src/storage/gone.ts', ['export const GONE = 1;']);
    write('src/storage/old-name.ts', HELPERS_BASE);
    git('add', '.');
    git('commit', '--quiet', '-m', 'base');
    base = git('rev-parse', 'HEAD');
    // Committed since the base: an operator changed on line 3, a statement added; a file deleted; one moved.
    write('src/storage/store.ts', [
      ...STORE_BASE.slice(0, 2),
      '  if (count <= limit) return limit;',
      '  if (count === 0) return 0;',
      ...STORE_BASE.slice(3),
    ]);
    rmSync(join(repo, 'src/storage/gone.ts'));
    git('mv', 'src/storage/old-name.ts', 'src/storage/new-name.ts');
    git('add', '.');
    git('commit', '--quiet', '-m', 'later');
    // Not committed: nameOf's string changed; a new file nobody added, that takes keyOf from new-name.ts,
    // wrapped and requoted as a formatter would, a comment added, and one new function.
    const store = readFileSync(join(repo, 'src/storage/store.ts'), 'utf8').replace("'store-'", "'shop-'");
    writeFileSync(join(repo, 'src/storage/store.ts'), store);
    write('src/storage/new-name.ts', HELPERS_BASE.slice(4));
    write('src/storage/new.ts', [
      '// Keys, moved here.',
      'export function keyOf(',
      '  prefix: string,',
      '  id: number,',
      '): string {',
      '  const key = [prefix, String(id), "key"].join(":")',
      '  return (',
      '    key.toUpperCase()',
      '  )',
      '}',
      'export function twice(n: number): number {',
      '  return n * 2;',
      '}',
    ]);
    // As a worktree's link to a shared node_modules: a folder, no file to mutate.
    symlinkSync(join(repo, 'src'), join(repo, 'linked'));
  });
  after(() => rmSync(repo, { recursive: true, force: true }));

  it('takes the lines holding code the base had nowhere, committed or not, untracked files too (a linked folder is no file)', () => {
    assert.deepEqual(Object.fromEntries(changedLines(base, repo)), {
      // The changed operator and the added statement, and the changed string; the lines between are the base's.
      'src/storage/store.ts': [
        { start: 3, end: 4 },
        { start: 8, end: 8 },
      ],
      // keyOf, moved from a renamed file, wrapped, requoted and commented, is no change; the new function is (a closing brace alone is found anywhere).
      'src/storage/new.ts': [{ start: 11, end: 12 }],
    });
  });

  it('gives Stryker whole-line ranges of the files the globs take, in order: a later ! takes one out', () => {
    const changed = new Map([
      [
        'src/storage/store.ts',
        [
          { start: 2, end: 2 },
          { start: 6, end: 7 },
        ],
      ],
      ['src/storage/deep/more.ts', [{ start: 1, end: 1 }]],
      ['src/storage/store.test.ts', [{ start: 3, end: 9 }]],
      ['src/storage/catalogue-sqlite.ts', [{ start: 5, end: 5 }]],
      ['src/other.ts', [{ start: 1, end: 1 }]],
    ]);
    assert.deepEqual(changedMutateRanges(STORAGE, changed), [
      'src/storage/store.ts:2-2',
      'src/storage/store.ts:6-7',
      'src/storage/deep/more.ts:1-1',
    ]);
    assert.deepEqual(changedMutateRanges(['src/storage/catalogue-*.ts', '!src/storage/catalogue-*.test.ts'], changed), [
      'src/storage/catalogue-sqlite.ts:5-5',
    ]);
    assert.equal(
      mutatedBy(['!src/other.ts', 'src/*.ts'], 'src/other.ts'),
      true,
      'a glob after the ! takes the file back',
    );
  });

  it('names no line of a file only moved or reformatted, and each changed line of a file as a line diff would', () => {
    assert.equal(changedLines(base, repo).has('src/storage/new-name.ts'), false);
  });

  it('reads the base from its file, skipping comments, and --record writes HEAD there keeping them', () => {
    mkdirSync(join(repo, 'test/mutation'), { recursive: true });
    writeFileSync(join(repo, BASE_FILE), `# why this file\n${base}\n`);
    assert.equal(recordedBase(repo), base);
    assert.equal(recordBase(repo), git('rev-parse', 'HEAD'));
    assert.equal(readFileSync(join(repo, BASE_FILE), 'utf8'), `# why this file\n${git('rev-parse', 'HEAD')}\n`);
  });

  it('says how to get a base the clone lacks', () => {
    assert.throws(
      () => resolveCommit('0123456789abcdef0123456789abcdef01234567', repo),
      /fetch the full history \(git fetch --unshallow\) or pass --base=REV/,
    );
  });
});
