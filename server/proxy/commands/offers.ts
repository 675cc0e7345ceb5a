// jobboard-connector offers check [--json] [--lang fr|en|es] [--data-dir DIR]
// Checks every offer the proxy lists against the law of job ads and Google's
// job-posting fields (catalogue/offer-checks/). It reads the proxy's own
// stored catalogue, the one its pages are served from: what the board shows
// now, a copy behind the service included (a closed offer still listed is one
// of the problems), and at no cost to the service's 120 requests a minute,
// which a running proxy spends on applications and its own paced syncs. Safe
// while the proxy runs: SQLite's WAL lets both read the file; with
// DATABASE_URL the shared copy is read into memory. It changes no offer.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { LOCALES } from '../../contract/values.ts';
import type { Locale } from '../../contract/values.ts';
import { OFFER_RULES, OfferReports } from '../../public-api/offer-checks.ts';
import type { OfferReport, OfferRule } from '../../public-api/offer-checks.ts';
import { OFFER_RULE_SOURCES, offerProblems } from '../catalogue/offer-checks/index.ts';
import { loadBoardLanguage, loadDatabaseUrl } from '../config.ts';
import { openCatalogueForCommand } from '../storage/index.ts';
import { iso, out, printedUsage } from './preamble.ts';
import { storeCommandError } from './store-errors.ts';

const USAGE = `Usage: jobboard-connector offers check [options]

Checks every offer the proxy lists, as its stored catalogue holds it, against
the law of job ads and Google's job-posting fields: a pay range, a date, a
text in the board's language, no upper age limit or other criterion the
labour code forbids, the JobPosting properties Google requires and
recommends, no closed offer still listed. Prints each offer with problems,
each problem with its rule, what to do and the law or guideline behind it.
It hides and changes nothing: the board decides. The rules and how the text
is read: server/proxy/README.md, "Offer checks".

Options:
  --data-dir DIR   the proxy's data directory (default: $DATA_DIR, else ./data)
  --lang LANG      the board's language, ${LOCALES.join(', ')}, which the text must be
                   in (default: $BOARD_LANG, as the proxy's, else fr)
  --json           a JSON array of the offers with problems
  -h, --help       this help

Exit code: 0 no problem, 1 problems found, 2 the check could not run
(a wrong option, no catalogue where the proxy keeps it, a database error).

Environment: DATA_DIR, BOARD_LANG, DATABASE_URL (as the proxy's: with DATABASE_URL the
catalogue the instances share in that PostgreSQL database is read).`;

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        lang: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n\n${USAGE}`, { cause: error });
  }
}

/** --lang, else the proxy's BOARD_LANG (which throws when it is not one of the languages), else fr. */
function langOf(value: string | undefined): Locale {
  if (value === undefined) return loadBoardLanguage(process.env);
  if ((LOCALES as readonly string[]).includes(value)) return value as Locale;
  throw new Error(`--lang must be one of ${LOCALES.join(', ')}, the board's language (it is "${value}").`);
}

/** One offer and its problems, as lines. */
function offerLines(report: OfferReport): string[] {
  const company = report.company_name === null ? '' : ` (${report.company_name})`;
  const lines = [`Offer ${report.id} ${JSON.stringify(report.title ?? '')}${company}`];
  for (const p of report.problems) {
    lines.push(`  ${p.rule}: ${p.message}`);
    if (p.detail !== undefined) lines.push(`    found: ${p.detail}`);
  }
  return lines;
}

function text(flagged: OfferReport[], checked: number, where: string, syncedAt: Date | null): string {
  const synced = `catalogue of ${where}, synced ${iso(syncedAt?.getTime() ?? null)}`;
  if (flagged.length === 0)
    return `No problem found in the ${checked} listed offer${checked === 1 ? '' : 's'} (${synced}).`;
  const problems = flagged.flatMap((r) => r.problems);
  // In the order of the rules' list, so that two runs print alike.
  const counts = new Map<OfferRule, number>(
    OFFER_RULES.map((rule) => [rule, problems.filter((p) => p.rule === rule).length] as const).filter(([, n]) => n > 0),
  );
  const total = problems.length;
  return [
    ...flagged.flatMap((r) => [...offerLines(r), '']),
    'Sources:',
    ...[...counts.keys()].map((rule) => `  ${rule}: ${OFFER_RULE_SOURCES[rule]}`),
    '',
    `${flagged.length} of ${checked} listed offers have problems: ${total} problem${total === 1 ? '' : 's'} (${[...counts].map(([rule, n]) => `${rule} ${n}`).join(', ')}); ${synced}. Nothing is hidden: the board decides.`,
  ].join('\n');
}

async function check(values: ReturnType<typeof parse>['values']): Promise<void> {
  const lang = langOf(values.lang);
  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
  const databaseUrl = loadDatabaseUrl(process.env);
  const where = databaseUrl === null ? dataDir : 'DATABASE_URL';
  const opened = await openCatalogueForCommand({ dataDir, databaseUrl, logger: pino({ level: 'silent' }) }).catch(
    (error: unknown) => {
      throw storeCommandError(error, where, 'read the catalogue');
    },
  );
  if (opened === undefined) {
    throw new Error(
      `No catalogue in ${dataDir} (no catalogue.db there): pass the proxy's data directory with --data-dir or DATA_DIR (or DATABASE_URL, as the proxy has it); a proxy keeps its catalogue there once started.`,
    );
  }
  try {
    const { store } = opened;
    let syncedAt: Date | null;
    let reports: OfferReport[];
    try {
      syncedAt = store.lastSyncedAt();
      reports = offerProblems(store, { lang });
    } catch (error) {
      throw storeCommandError(error, opened.where, 'read the catalogue');
    }
    if (syncedAt === null && reports.length === 0) {
      throw new Error(
        `The catalogue of ${opened.where} has never been synced: start the proxy (it syncs at start), then check again.`,
      );
    }
    const flagged = reports.filter((r) => r.problems.length > 0);
    out(
      values.json
        ? JSON.stringify(OfferReports.parse(flagged), null, 2)
        : text(flagged, reports.length, opened.where, syncedAt),
    );
    process.exitCode = flagged.length === 0 ? 0 : 1;
  } finally {
    await opened.close();
  }
}

/** Runs the command; when the check cannot run, says why on stderr and exits 2 (1 means problems found). */
export async function main(args: string[]): Promise<void> {
  try {
    const { values, positionals } = parse(args);
    const [command, ...rest] = positionals;
    if (printedUsage(command, values.help, USAGE, out)) return;
    if (command !== 'check' || rest.length > 0)
      throw new Error(`Unknown offers command "${positionals.join(' ')}".\n\n${USAGE}`);
    await check(values);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
