// What `npm run test:mutation -- --changed` mutates: the lines of grouped
// modules that hold code new since a base commit (the last one whose code passed the
// check, written in BASE_FILE), as Stryker `mutate` ranges. Lines only
// deleted leave nothing to mutate; a changed test mutates nothing either (a
// full run judges the tests).
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { matchesGlob } from 'node:path';
import { SOURCE_FILE, baseRuns, newLines } from './new-code.ts';

/** The commit whose code last passed the mutation check; `--record` moves it. */
export const BASE_FILE = 'test/mutation/base-commit';

/** Changed lines of one file, first and last counted from 1, both included. */
export interface LineRange {
  start: number;
  end: number;
}

function git(args: string[], cwd: string): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The base commit of BASE_FILE: its first line that is not a comment. */
export function recordedBase(cwd = '.'): string {
  const line = readFileSync(`${cwd}/${BASE_FILE}`, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  if (line === undefined) throw new Error(`${BASE_FILE} names no commit: write one there, or pass --base=REV`);
  return line;
}

/** The full commit id of REV, or an error that says how to get it (a shallow clone lacks old commits). */
export function resolveCommit(rev: string, cwd = '.'): string {
  try {
    return git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], cwd).trim();
  } catch {
    throw new Error(
      `${rev} is not a commit of this clone: fetch the full history (git fetch --unshallow) or pass --base=REV`,
    );
  }
}

/** Writes HEAD into BASE_FILE, keeping its comment lines. */
export function recordBase(cwd = '.'): string {
  const head = resolveCommit('HEAD', cwd);
  const comments = readFileSync(`${cwd}/${BASE_FILE}`, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('#'));
  writeFileSync(`${cwd}/${BASE_FILE}`, [...comments, head, ''].join('\n'));
  return head;
}

/** Whether a tracked file differs from HEAD (an untracked one is not in HEAD: a later diff from HEAD holds it). */
export function workingTreeChanged(cwd = '.'): boolean {
  return git(['status', '--porcelain', '--untracked-files=no'], cwd).trim() !== '';
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/** The added or changed lines of each file in a `git diff -U0` output. */
export function rangesOfDiff(diff: string): Map<string, LineRange[]> {
  const ranges = new Map<string, LineRange[]>();
  let file: string | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      // `+++ /dev/null` is a deleted file: nothing of it is left to mutate.
      file = line === '+++ /dev/null' ? undefined : line.slice('+++ b/'.length);
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk === null || file === undefined) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    if (count === 0) continue;
    const list = ranges.get(file) ?? [];
    list.push({ start, end: start + count - 1 });
    ranges.set(file, list);
  }
  return ranges;
}

/** The base's sources that code may have come from (tests aside: code taken from a test is new to the sources). */
function baseSources(base: string, cwd: string): { file: string; text: string }[] {
  const files = git(['ls-tree', '-r', '--name-only', base], cwd)
    .split('\n')
    .filter((f) => SOURCE_FILE.test(f) && !/(^|\/)(node_modules|dist)\//.test(f) && !/\.test\./.test(f));
  if (files.length === 0) return [];
  // One `git cat-file --batch` for all of them: each answer is a header line, the bytes, a newline.
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd,
    input: files.map((f) => `${base}:${f}\n`).join(''),
    maxBuffer: 512 * 1024 * 1024,
  });
  const sources: { file: string; text: string }[] = [];
  let at = 0;
  for (const file of files) {
    const headerEnd = out.indexOf(10, at);
    const size = Number(out.subarray(at, headerEnd).toString('utf8').split(' ')[2]);
    sources.push({ file, text: out.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8') });
    at = headerEnd + 1 + size + 1;
  }
  return sources;
}

function asRanges(lines: readonly number[]): LineRange[] {
  const ranges: LineRange[] = [];
  for (const line of lines) {
    const last = ranges.at(-1);
    if (last !== undefined && last.end === line - 1) last.end = line;
    else ranges.push({ start: line, end: line });
  }
  return ranges;
}

/**
 * The lines of the working tree that differ from BASE, by file: committed, staged, unstaged and untracked changes alike.
 * In source files, only lines holding code the base had nowhere (see new-code.ts): moving or reformatting code is no change.
 */
export function changedLines(base: string, cwd = '.'): Map<string, LineRange[]> {
  const ranges = rangesOfDiff(
    git(
      ['diff', '-U0', '--no-color', '--no-ext-diff', '--no-renames', '--src-prefix=a/', '--dst-prefix=b/', base, '--'],
      cwd,
    ),
  );
  for (const file of git(['ls-files', '--others', '--exclude-standard'], cwd)
    .split('\n')
    .filter((f) => f !== '')) {
    // A link to a folder (a shared node_modules) is no file to mutate.
    if (!statSync(`${cwd}/${file}`).isFile()) continue;
    const text = readFileSync(`${cwd}/${file}`, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > 0) ranges.set(file, [{ start: 1, end: lines }]);
  }
  const sources = [...ranges.keys()].filter((file) => SOURCE_FILE.test(file));
  if (sources.length === 0) return ranges;
  const runs = baseRuns(baseSources(base, cwd));
  for (const file of sources) {
    const fresh = asRanges(newLines(file, readFileSync(`${cwd}/${file}`, 'utf8'), runs));
    if (fresh.length === 0) ranges.delete(file);
    else ranges.set(file, fresh);
  }
  return ranges;
}

/** Whether Stryker would mutate FILE for these `mutate` globs: each pattern in order, a `!` one taking files out. */
export function mutatedBy(patterns: readonly string[], file: string): boolean {
  let mutated = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (matchesGlob(file, pattern.slice(1))) mutated = false;
    } else if (matchesGlob(file, pattern)) {
      mutated = true;
    }
  }
  return mutated;
}

/** Stryker `mutate` ranges (`file:START-END`, whole lines) of the changed lines these globs cover; empty when none. */
export function changedMutateRanges(patterns: readonly string[], changed: ReadonlyMap<string, LineRange[]>): string[] {
  const mutate: string[] = [];
  for (const [file, ranges] of changed) {
    if (!mutatedBy(patterns, file)) continue;
    for (const { start, end } of ranges) mutate.push(`${file}:${start}-${end}`);
  }
  return mutate;
}
