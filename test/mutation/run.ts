// `npm run test:mutation [-- GROUP...]`: StrykerJS over each group of
// groups.ts (all of them when none is named), one group after the other,
// then each group's counts and score and the total. Exits 1 when a group
// scores under TARGET_SCORE. Not part of `npm test`: it runs a test command
// per mutant and takes minutes.
import { performance } from 'node:perf_hooks';
import { Stryker } from '@stryker-mutator/core';
import type { MutantResult, PartialStrykerOptions } from '@stryker-mutator/api/core';
import { MUTATION_GROUPS } from './groups.ts';
import type { MutationGroup, MutationPart } from './groups.ts';

const TARGET_SCORE = 85;
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

function countsOf(results: readonly MutantResult[]): GroupCounts {
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

function optionsFor(group: MutationGroup, part: MutationPart, index: number, concurrency: number): PartialStrykerOptions {
  return {
    testRunner: 'command',
    commandRunner: { command: part.command },
    mutate: part.mutate,
    concurrency,
    // A mutant's run may wait for a busy machine: only a run this much slower than the first counts as a timeout.
    timeoutMS: 15_000,
    reporters: ['clear-text', process.stdout.isTTY ? 'progress' : 'progress-append-only', 'json'],
    // With the command runner, the one "test" is the whole command: listing it per mutant says nothing.
    clearTextReporter: { reportTests: false, logTests: false, allowColor: process.stdout.isTTY === true },
    jsonReporter: { fileName: `reports/mutation/${group.name}${group.parts.length > 1 ? `-${index + 1}` : ''}.json` },
    thresholds: { high: TARGET_SCORE, low: 70, break: null },
    // Nothing type-checks in the sandbox (Node and esbuild strip the types): no file needs its checks turned off.
    disableTypeChecks: false,
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
    // Stryker's log levels are an enum of these strings.
    logLevel: 'warn' as PartialStrykerOptions['logLevel'],
  };
}

function usage(): string {
  return [
    'npm run test:mutation [-- [--concurrency=N] GROUP...]',
    'Runs StrykerJS over each group named (all of them when none is), then prints their scores.',
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

async function main(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage());
    return 0;
  }
  const concurrencyArg = args.find((a) => a.startsWith('--concurrency='));
  const concurrency = concurrencyArg === undefined ? DEFAULT_CONCURRENCY : Number(concurrencyArg.slice('--concurrency='.length));
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    console.error(`--concurrency takes a whole number of at least 1.\n\n${usage()}`);
    return 2;
  }
  const names = args.filter((a) => a !== concurrencyArg);
  const unknown = names.filter((name) => !MUTATION_GROUPS.some((g) => g.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown group ${unknown.join(', ')}.\n\n${usage()}`);
    return 2;
  }
  const groups = names.length === 0 ? MUTATION_GROUPS : MUTATION_GROUPS.filter((g) => names.includes(g.name));
  const lines: string[] = [];
  let total: GroupCounts = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, other: 0 };
  let under = false;
  for (const group of groups) {
    const started = performance.now();
    let counts: GroupCounts = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, other: 0 };
    try {
      for (const [index, part] of group.parts.entries()) {
        console.log(`\n== ${group.name}${group.parts.length > 1 ? ` (${index + 1}/${group.parts.length})` : ''}: ${part.command}`);
        counts = add(counts, countsOf(await new Stryker(optionsFor(group, part, index, concurrency)).runMutationTest()));
      }
    } catch (error) {
      // Most often the tests fail before any mutant (Stryker's dry run): the other groups still run.
      console.error(`\n${group.name}: Stryker stopped: ${error instanceof Error ? error.message : String(error)}`);
      lines.push(`| ${group.name} | failed to run | | | | | |`);
      under = true;
      continue;
    }
    lines.push(row(group.name, counts, (performance.now() - started) / 1000));
    total = add(total, counts);
    if (scoreOf(counts) < TARGET_SCORE) under = true;
  }
  console.log(`\nMutation score (target ${TARGET_SCORE}% per group):\n`);
  console.log('| group | killed | survived | timeout | no coverage | score | time |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const line of lines) console.log(line);
  if (groups.length > 1) console.log(row('total', total, undefined));
  return under ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
