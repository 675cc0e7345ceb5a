// What the mutation gate mutates: the changed lines of a real git repository
// (committed, uncommitted and untracked), and which of them a group's globs take.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BASE_FILE, changedLines, changedMutateRanges, mutatedBy, recordBase, recordedBase, resolveCommit } from './changed.ts';

const STORAGE = ['src/storage/**/*.ts', '!src/storage/**/*.test.ts', '!src/storage/catalogue-*.ts'];

describe('the changed lines the mutation gate mutates', () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
  const write = (file: string, lines: string[]) => writeFileSync(join(repo, file), `${lines.join('\n')}\n`);
  let base: string;

  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'jc-mutation-changed-'));
    git('init', '--quiet');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'Test');
    mkdirSync(join(repo, 'src/storage'), { recursive: true });
    write('src/storage/store.ts', ['a', 'b', 'c', 'd', 'e', 'f']);
    write('src/storage/gone.ts', ['x']);
    write('src/storage/old-name.ts', ['kept', 'as is']);
    git('add', '.');
    git('commit', '--quiet', '-m', 'base');
    base = git('rev-parse', 'HEAD');
    // Committed since the base: line 2 changed, two lines added after 6; a file deleted; one moved.
    write('src/storage/store.ts', ['a', 'B', 'c', 'd', 'e', 'f', 'g', 'h']);
    rmSync(join(repo, 'src/storage/gone.ts'));
    git('mv', 'src/storage/old-name.ts', 'src/storage/new-name.ts');
    git('add', '.');
    git('commit', '--quiet', '-m', 'later');
    // Not committed: line 4 deleted (nothing left to mutate there), line 5 changed; a new file nobody added.
    write('src/storage/store.ts', ['a', 'B', 'c', 'E', 'f', 'g', 'h']);
    write('src/storage/new.ts', ['one', 'two']);
    // As a worktree's link to a shared node_modules: a folder, no file to mutate.
    symlinkSync(join(repo, 'src'), join(repo, 'linked'));
  });
  after(() => rmSync(repo, { recursive: true, force: true }));

  it('takes the changed and added lines since the base, committed or not, and an untracked file whole (a linked folder is no file)', () => {
    assert.deepEqual(Object.fromEntries(changedLines(base, repo)), {
      'src/storage/store.ts': [
        { start: 2, end: 2 },
        { start: 4, end: 4 },
        { start: 6, end: 7 },
      ],
      // A moved file is new to the base: all of it is judged.
      'src/storage/new-name.ts': [{ start: 1, end: 2 }],
      'src/storage/new.ts': [{ start: 1, end: 2 }],
    });
  });

  it('gives Stryker whole-line ranges of the files the globs take, in order: a later ! takes one out', () => {
    const changed = new Map([
      ['src/storage/store.ts', [{ start: 2, end: 2 }, { start: 6, end: 7 }]],
      ['src/storage/deep/more.ts', [{ start: 1, end: 1 }]],
      ['src/storage/store.test.ts', [{ start: 3, end: 9 }]],
      ['src/storage/catalogue-sqlite.ts', [{ start: 5, end: 5 }]],
      ['src/other.ts', [{ start: 1, end: 1 }]],
    ]);
    assert.deepEqual(changedMutateRanges(STORAGE, changed), ['src/storage/store.ts:2-2', 'src/storage/store.ts:6-7', 'src/storage/deep/more.ts:1-1']);
    assert.deepEqual(changedMutateRanges(['src/storage/catalogue-*.ts', '!src/storage/catalogue-*.test.ts'], changed), ['src/storage/catalogue-sqlite.ts:5-5']);
    assert.equal(mutatedBy(['!src/other.ts', 'src/*.ts'], 'src/other.ts'), true, 'a glob after the ! takes the file back');
  });

  it('reads the base from its file, skipping comments, and --record writes HEAD there keeping them', () => {
    mkdirSync(join(repo, 'test/mutation'), { recursive: true });
    writeFileSync(join(repo, BASE_FILE), `# why this file\n${base}\n`);
    assert.equal(recordedBase(repo), base);
    assert.equal(recordBase(repo), git('rev-parse', 'HEAD'));
    assert.equal(readFileSync(join(repo, BASE_FILE), 'utf8'), `# why this file\n${git('rev-parse', 'HEAD')}\n`);
  });

  it('says how to get a base the clone lacks', () => {
    assert.throws(() => resolveCommit('0123456789abcdef0123456789abcdef01234567', repo), /fetch the full history \(git fetch --unshallow\) or pass --base=REV/);
  });
});
