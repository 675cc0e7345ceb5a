// `npm run test:mutation [-- GROUP...]`: StrykerJS over each group of
// groups.ts (all of them when none is named), one group after the other,
// then each group's counts and score and the total. Exits 1 when a group
// scores under TARGET_SCORE. Not part of `npm test`: it runs a test command
// per mutant and takes minutes (the storage group, over an hour), so
// `--survivors` runs again only the mutants the last run's reports left alive
// (and `--timeouts` those that timed out, as a run on a busy machine may),
// for when tests were added and the code they mutate is unchanged.
// `--changed` mutates only the lines of grouped modules changed since the
// base commit (changed.ts): the gate `.ci/run` runs on every change.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Stryker } from '@stryker-mutator/core';
import type { MutantResult, PartialStrykerOptions } from '@stryker-mutator/api/core';
import { dropDatabasesStartingWith } from '../../server/test/postgres-server.ts';
import { MUTATION_GROUPS } from './groups.ts';
import {
  BASE_FILE,
  changedLines,
  changedMutateRanges,
  recordBase,
  recordedBase,
  resolveCommit,
  workingTreeChanged,
} from './changed.ts';
import type { LineRange } from './changed.ts';
import type { MutationGroup, MutationPart } from './groups.ts';

const TARGET_SCORE = 85;
/** The PostgreSQL databases of this run's tests: a mutant's run ends at its first failure, before its hooks drop them. */
const DATABASE_PREFIX = `jc_mutation_${process.pid}`;
process.env.TEST_DATABASE_PREFIX = DATABASE_PREFIX;

/** Mutants tested at once by default (--concurrency=N): the tests start servers and browsers, and machines running this have few cores. */
const DEFAULT_CONCURRENCY = 2;

export interface GroupCounts {
  killed: number;
  survived: number;
  timeout: number;
  noCoverage: number;
  /** Mutants Stryker could not judge (compile or runtime errors of the mutant, ignored ones): outside the score. */
  other: number;
}

/** Stryker's mutation score: detected (killed or timed out) over every mutant judged. */
function scoreOf(counts: GroupCounts): number {
  const detected = counts.killed + counts.timeout;
  const judged = detected + counts.survived + counts.noCoverage;
  return judged === 0 ? 100 : (100 * detected) / judged;
}

function countsOf(results: readonly Pick<MutantResult, 'status'>[]): GroupCounts {
  const counts: GroupCounts = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, other: 0 };
  for (const { status } of results) {
    if (status === 'Killed') counts.killed += 1;
    else if (status === 'Survived') counts.survived += 1;
    else if (status === 'Timeout') counts.timeout += 1;
    else if (status === 'NoCoverage') counts.noCoverage += 1;
    else counts.other += 1;
  }
  return counts;
}

function add(a: GroupCounts, b: GroupCounts): GroupCounts {
  return {
    killed: a.killed + b.killed,
    survived: a.survived + b.survived,
    timeout: a.timeout + b.timeout,
    noCoverage: a.noCoverage + b.noCoverage,
    other: a.other + b.other,
  };
}

function reportPath(group: MutationGroup, index: number, changed: boolean): string {
  // The changed lines' reports apart: --survivors reads the full runs' ones.
  return `reports/mutation/${changed ? 'changed/' : ''}${group.name}${group.parts.length > 1 ? `-${index + 1}` : ''}.json`;
}

function optionsFor(
  part: MutationPart,
  mutate: string[],
  jsonReport: string,
  concurrency: number,
): PartialStrykerOptions {
  return {
    testRunner: 'command',
    commandRunner: { command: part.command },
    mutate,
    concurrency,
    // A mutant's run may wait for a busy machine: only a run this much slower than the first counts as a timeout.
    timeoutMS: 15_000,
    reporters: ['clear-text', process.stdout.isTTY ? 'progress' : 'progress-append-only', 'json'],
    // With the command runner, the one "test" is the whole command: listing it per mutant says nothing.
    clearTextReporter: { reportTests: false, logTests: false, allowColor: process.stdout.isTTY === true },
    jsonReporter: { fileName: jsonReport },
    thresholds: { high: TARGET_SCORE, low: 70, break: null },
    // Nothing type-checks in the sandbox (Node and esbuild strip the types): no file needs its checks turned off.
    disableTypeChecks: false,
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
    // Stryker's log levels are an enum of these strings.
    logLevel: 'warn' as PartialStrykerOptions['logLevel'],
  };
}

/** What the JSON report (mutation-testing-report-schema) holds that is used here. */
interface ReportPosition {
  line: number;
  column: number;
}
interface ReportMutant {
  mutatorName: string;
  replacement?: string;
  status: MutantResult['status'];
  location: { start: ReportPosition; end: ReportPosition };
}
interface Report {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}

const ALIVE: readonly MutantResult['status'][] = ['Survived', 'NoCoverage'];

function readReport(path: string): Report {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Report;
  } catch (error) {
    throw new Error(
      `${path} cannot be read (${error instanceof Error ? error.message : String(error)}): run the group in full first`,
      { cause: error },
    );
  }
}

function mutantKey(file: string, m: ReportMutant): string {
  const { start, end } = m.location;
  return `${file}:${start.line}:${start.column}-${end.line}:${end.column}:${m.mutatorName}:${m.replacement ?? ''}`;
}

/**
 * Stryker `mutate` ranges covering the mutants of a report with one of these
 * statuses, or undefined when none has. The report counts only while the code it mutated is
 * the same: a changed file, alive mutants or not, stops the run.
 */
function rangesOf(report: Report, path: string, statuses: readonly MutantResult['status'][]): string[] | undefined {
  const ranges = new Set<string>();
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    // A changed file's killed mutants may live now, not only its survivors.
    if (readFileSync(file, 'utf8') !== source)
      throw new Error(`${file} changed since ${path} was written: run the group in full`);
    const again = mutants.filter((m) => statuses.includes(m.status));
    // The report's columns count from 1; a range's columns count from 0, its lines from 1.
    for (const {
      location: { start, end },
    } of again)
      ranges.add(`${file}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`);
  }
  return ranges.size === 0 ? undefined : [...ranges];
}

/** The report with the statuses of the mutants run again; a range may hold mutants killed before, run again too. */
function merged(report: Report, rerun: Report): Report {
  const statuses = new Map<string, ReportMutant['status']>();
  for (const [file, { mutants }] of Object.entries(rerun.files))
    for (const m of mutants) statuses.set(mutantKey(file, m), m.status);
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) m.status = statuses.get(mutantKey(file, m)) ?? m.status;
  }
  return report;
}

/** One part: these mutate patterns (again undefined), or only the mutants of its last report with those statuses; answers the part's counts. */
async function runPart(
  part: MutationPart,
  mutate: string[],
  jsonReport: string,
  concurrency: number,
  again: readonly MutantResult['status'][] | undefined,
): Promise<GroupCounts> {
  if (again === undefined)
    return countsOf(await new Stryker(optionsFor(part, mutate, jsonReport, concurrency)).runMutationTest());
  const report = readReport(jsonReport);
  const ranges = rangesOf(report, jsonReport, again);
  if (ranges !== undefined) {
    const rerunReport = jsonReport.replace(/\.json$/, '.again.json');
    await new Stryker(optionsFor(part, ranges, rerunReport, concurrency)).runMutationTest();
    writeFileSync(jsonReport, JSON.stringify(merged(report, readReport(rerunReport))));
    rmSync(rerunReport);
  }
  return countsOf(Object.values(report.files).flatMap((f) => f.mutants));
}

function usage(): string {
  return [
    'npm run test:mutation [-- [--concurrency=N] [--survivors] [--timeouts] [--changed [--base=REV]] [--record] GROUP[:PART]...]',
    'Runs StrykerJS over each group named (all of them when none is), then prints their scores; GROUP:PART runs one part of a group.',
    "--survivors runs again only the mutants the group's last reports (reports/mutation/) left alive, and updates them;",
    '--timeouts those that timed out (a run slowed by a busy machine counts as one).',
    `--changed mutates only the lines changed since the commit in ${BASE_FILE} (or REV), committed or not, each judged by its group's`,
    "command, and fails when a group's changed lines score under the target; --record then writes HEAD there (every group, a clean tree).",
    '',
    ...MUTATION_GROUPS.map((g) => `  ${g.name.padEnd(12)} ${g.about}`),
  ].join('\n');
}

function row(name: string, counts: GroupCounts, seconds: number | undefined): string {
  const cells = [
    name,
    String(counts.killed),
    String(counts.survived),
    String(counts.timeout),
    String(counts.noCoverage),
    `${scoreOf(counts).toFixed(1)}%`,
    seconds === undefined ? '' : `${Math.round(seconds)} s`,
  ];
  return `| ${cells.join(' | ')} |`;
}

interface Wanted {
  arg: string;
  name: string;
  part: number | undefined;
}

interface RunOptions {
  concurrency: number;
  /** The statuses whose mutants run again (--survivors, --timeouts); empty for a new run. */
  again: MutantResult['status'][];
  wanted: Wanted[];
  /** Only the lines changed since a base (--changed: --base=REV, else the recorded one), or undefined for whole groups. */
  changed: { base: string | undefined } | undefined;
  record: boolean;
}

const FLAGS = ['--survivors', '--timeouts', '--changed', '--record'];

/** The options of ARGS, or the message that says what is wrong with them. */
function parseArgs(args: string[]): RunOptions | string {
  const concurrencyArg = args.find((a) => a.startsWith('--concurrency='));
  const concurrency =
    concurrencyArg === undefined ? DEFAULT_CONCURRENCY : Number(concurrencyArg.slice('--concurrency='.length));
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) return '--concurrency takes a whole number of at least 1.';
  const baseArg = args.find((a) => a.startsWith('--base='));
  const changed = args.includes('--changed');
  if (baseArg !== undefined && !changed) return '--base goes with --changed.';
  const again: MutantResult['status'][] = [
    ...(args.includes('--survivors') ? ALIVE : []),
    ...(args.includes('--timeouts') ? (['Timeout'] as const) : []),
  ];
  if (changed && again.length > 0) return '--changed runs new mutants: it goes without --survivors and --timeouts.';
  // GROUP:N runs only the group's part N (its own report), for a group whose parts take long.
  const wanted = args
    .filter((a) => a !== concurrencyArg && a !== baseArg && !FLAGS.includes(a))
    .map((arg) => {
      const [name = '', part] = arg.split(':');
      return { arg, name, part: part === undefined ? undefined : Number(part) - 1 };
    });
  const unknown = wanted.filter(({ name, part }) => {
    const group = MUTATION_GROUPS.find((g) => g.name === name);
    return (
      group === undefined || (part !== undefined && (!Number.isSafeInteger(part) || group.parts[part] === undefined))
    );
  });
  if (unknown.length > 0) return `Unknown group or part ${unknown.map((u) => u.arg).join(', ')}.`;
  const record = args.includes('--record');
  // The base stands for all the code: only a run of every group, new mutants all, may move it.
  if (record && (wanted.length > 0 || again.length > 0))
    return '--record goes with a run of every group (no GROUP, no --survivors or --timeouts).';
  return {
    concurrency,
    again,
    wanted,
    changed: changed ? { base: baseArg?.slice('--base='.length) } : undefined,
    record,
  };
}

/** The changed lines since REV, said in one line. */
function changedSince(rev: string): Map<string, LineRange[]> {
  const base = resolveCommit(rev);
  const changed = changedLines(base);
  console.log(`Changed since ${base}: ${changed.size} file(s).`);
  return changed;
}

/** The parts named of a group (GROUP:N), or undefined when the group is named whole (or not at all). */
function onlyParts(group: MutationGroup, wanted: readonly Wanted[]): number[] | undefined {
  const named = wanted.filter((w) => w.name === group.name);
  return named.length === 0 || named.some((w) => w.part === undefined) ? undefined : named.map((w) => w.part!);
}

/** The planned parts of a group, one after the other: their counts together, or undefined when Stryker stopped (said why). */
async function runGroup(
  group: MutationGroup,
  planned: { part: MutationPart; index: number; mutate: string[] }[],
  options: Pick<RunOptions, 'concurrency' | 'again'> & { changed: boolean },
): Promise<GroupCounts | undefined> {
  let counts: GroupCounts = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, other: 0 };
  try {
    for (const { part, index, mutate } of planned) {
      console.log(
        `\n== ${group.name}${group.parts.length > 1 ? ` (${index + 1}/${group.parts.length})` : ''}: ${part.command}`,
      );
      if (options.changed) console.log(`   mutating ${mutate.join(' ')}`);
      try {
        const again = options.again.length === 0 ? undefined : options.again;
        counts = add(
          counts,
          await runPart(part, mutate, reportPath(group, index, options.changed), options.concurrency, again),
        );
      } finally {
        await dropDatabasesStartingWith(DATABASE_PREFIX);
      }
    }
  } catch (error) {
    // Most often the tests fail before any mutant (Stryker's dry run): the other groups still run.
    console.error(`\n${group.name}: Stryker stopped: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  return counts;
}

async function main(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage());
    return 0;
  }
  const options = parseArgs(args);
  if (typeof options === 'string') {
    console.error(`${options}\n\n${usage()}`);
    return 2;
  }
  if (options.record && workingTreeChanged()) {
    console.error(
      `--record writes HEAD to ${BASE_FILE}: commit (or stash) the changes first, so what was checked is HEAD.`,
    );
    return 2;
  }
  const { concurrency, again, wanted } = options;
  let changed: Map<string, LineRange[]> | undefined;
  try {
    changed = options.changed === undefined ? undefined : changedSince(options.changed.base ?? recordedBase());
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const groups =
    wanted.length === 0 ? MUTATION_GROUPS : MUTATION_GROUPS.filter((g) => wanted.some((w) => w.name === g.name));
  // What each part mutates: its globs, or the changed lines they cover.
  const mutateOf = (part: MutationPart): string[] =>
    changed === undefined ? part.mutate : changedMutateRanges(part.mutate, changed);
  const lines: string[] = [];
  let total: GroupCounts = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, other: 0 };
  let under = false;
  for (const group of groups) {
    const parts = onlyParts(group, wanted);
    const planned = group.parts.flatMap((part, index) => {
      const mutate = mutateOf(part);
      // A part not named, or none of whose lines changed, is not run.
      return parts?.includes(index) === false || mutate.length === 0 ? [] : [{ part, index, mutate }];
    });
    if (planned.length === 0) continue;
    const started = performance.now();
    const counts = await runGroup(group, planned, { concurrency, again, changed: changed !== undefined });
    if (counts === undefined) {
      lines.push(`| ${group.name} | failed to run | | | | | |`);
      under = true;
      continue;
    }
    const label = parts === undefined ? group.name : parts.map((p) => `${group.name}:${p + 1}`).join(' ');
    lines.push(row(label, counts, (performance.now() - started) / 1000));
    total = add(total, counts);
    if (scoreOf(counts) < TARGET_SCORE) under = true;
  }
  if (lines.length === 0 && changed !== undefined)
    console.log('\nNo changed line of a grouped module: no mutant to run.');
  else printScores(lines, total, changed !== undefined);
  if (options.record && !under) console.log(`\n${BASE_FILE} now names ${recordBase()}: commit it.`);
  return under ? 1 : 0;
}

function printScores(lines: string[], total: GroupCounts, changed: boolean): void {
  console.log(`\nMutation score${changed ? ' of the changed lines' : ''} (target ${TARGET_SCORE}% per group):\n`);
  console.log('| group | killed | survived | timeout | no coverage | score | time |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const line of lines) console.log(line);
  if (lines.length > 1) console.log(row('total', total, undefined));
}

process.exitCode = await main(process.argv.slice(2));
