// `jobboard-connector offers check` as an operator runs it beside a running
// proxy: the seeded sandbox, a proxy that synced its catalogue from it, and
// the command as a child process reading the proxy's store (its file, or the
// shared copy of DATABASE_URL).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEMO_KEYS } from '../../sandbox/index.ts';
import { OFFERS } from '../../sandbox/demo-offers.ts';
import { TestSandbox } from '../../sandbox/test-support.ts';
import { OfferReports } from '../../public-api/offer-checks.ts';
import { runCli } from '../../test/cli-run.ts';
import { freshDatabase, skipWithoutPostgres } from '../../test/postgres.ts';
import { offerProblems } from '../catalogue/offer-checks/index.ts';
import type { RunningProxy } from '../index.ts';
import { startDemoBoardProxy } from '../test-support.ts';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'offers-command-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function check(args: string[], env: Record<string, string>) {
  const run = runCli(CLI, ['offers', 'check', ...args], env);
  const code = await run.exited;
  return { code, out: run.out(), err: run.err() };
}

/** The titles of the demo offers written in English (the seed titles them in their own language). */
const ENGLISH_TITLES = new Set(OFFERS.filter((o) => o.locale === 'en').map((o) => o.en));

describe('jobboard-connector offers check', () => {
  let sandbox: TestSandbox;
  let proxy: RunningProxy;
  let hostId: number;
  const dataDir = join(tmp, 'data');

  before(async () => {
    sandbox = await TestSandbox.start({ seed: 'demo', rateLimitPerMinute: 0 });
    // One more offer on the demo board, in French, breaking two rules: no salary, an upper age limit.
    const company = sandbox.api(await sandbox.token(DEMO_KEYS.company));
    const created = await company('/campaigns', {
      body: {
        campaign: {
          manage_name: 'Accueil Lyon',
          name: "Hôte·sse d'accueil (H/F)",
          description:
            '<p>Vous accueillez les visiteurs de notre siège à Lyon, vous répondez au téléphone et vous gérez les salles de réunion. Vous avez moins de 30 ans et le sens du service.</p>',
          job_type: 'Fixed term contract',
          working_time: 'Full time',
          address: { city: 'Lyon', country: 'France', postal_code: '69002' },
        },
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    hostId = created.body.id as number;
    await sandbox.admin('PATCH', `/campaigns/${hostId}`, { status: 'online', channels: ['jobboard_demo'] });
    proxy = await startDemoBoardProxy(sandbox.url, { DATA_DIR: dataDir });
  });
  after(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  /** The listed offers the demo writes in English: the French board's text rule flags them. */
  function englishOfferIds(): number[] {
    const { store } = proxy.catalogue;
    return store
      .listedIds()
      .filter((id) => ENGLISH_TITLES.has(store.get(id)?.name ?? ''))
      .sort((a, b) => a - b);
  }

  it('while the proxy runs, prints each offer with problems, its rules and what to do, the sources, and exits 1', async () => {
    const english = englishOfferIds();
    assert.ok(english.length > 0, 'the demo board lists offers written in English');
    const { code, out, err } = await check([], { DATA_DIR: dataDir });
    assert.equal(code, 1, err);
    for (const id of english) assert.match(out, new RegExp(`^Offer ${id} ".+"`, 'm'));
    assert.match(out, new RegExp(`^Offer ${hostId} "Hôte·sse d'accueil \\(H/F\\)" \\(Acme Conseil\\)$`, 'm'));
    assert.match(out, /^ {2}pay_range_missing: No pay range: /m);
    assert.match(out, /^ {4}found: age: "moins de 30 ans"$/m);
    assert.match(
      out,
      /^Sources:\n(?: {2}.+\n)* {2}not_in_french: Code du travail, art\. L5331-4 .+https:\/\/www\.legifrance\.gouv\.fr\//m,
    );
    const offers = english.length + 1;
    assert.match(
      out,
      new RegExp(
        `^${offers} of \\d+ listed offers have problems: ${offers + 1} problems \\(pay_range_missing 1, not_in_french ${english.length}, upper_age_limit 1\\); catalogue of .+catalogue\\.db, synced \\d{4}-`,
        'm',
      ),
    );
  });

  it('--json prints the offers with problems as a JSON array of the public schema, the demo flagged by its language alone', async () => {
    const { code, out, err } = await check(['--json'], { DATA_DIR: dataDir });
    assert.equal(code, 1, err);
    const reports = OfferReports.parse(JSON.parse(out));
    assert.deepEqual(
      reports.map((r) => [r.id, r.problems.map((p) => p.rule)]),
      [
        ...englishOfferIds().map((id) => [id, ['not_in_french']]),
        [hostId, ['pay_range_missing', 'upper_age_limit']],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
  });

  it("reads the board's language from BOARD_LANG, as the proxy does, --lang overriding it; names a wrong one and exits 2", async () => {
    const rules = async (args: string[], env: Record<string, string>) => {
      const { code, out, err } = await check(['--json', ...args], { DATA_DIR: dataDir, ...env });
      assert.equal(code, 1, err);
      return new Map(OfferReports.parse(JSON.parse(out)).map((r) => [r.id, r.problems.map((p) => p.rule)]));
    };
    const english = englishOfferIds();
    const onEnglishBoard = await rules([], { BOARD_LANG: 'en' });
    assert.deepEqual(onEnglishBoard.get(hostId), ['pay_range_missing', 'not_in_board_language', 'upper_age_limit']);
    for (const id of english) assert.equal(onEnglishBoard.get(id), undefined, `offer ${id} is in English`);
    assert.ok(![...onEnglishBoard.values()].flat().includes('not_in_french'));
    const overridden = await rules(['--lang', 'fr'], { BOARD_LANG: 'en' });
    assert.deepEqual(overridden, await rules([], {}));
    for (const id of english) assert.deepEqual(overridden.get(id), ['not_in_french']);
    const wrong = await check([], { DATA_DIR: dataDir, BOARD_LANG: 'de' });
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, /BOARD_LANG must be one of fr, en, es: the language of the board's offers/);
    assert.equal(wrong.out, '');
  });

  it("exits 0 once every listed offer passes (here: the faulty offer and those in English archived, on a French board; on an English one, each French offer is not in the board's language)", async () => {
    for (const id of [hostId, ...englishOfferIds()])
      await sandbox.admin('PATCH', `/campaigns/${id}`, { status: 'archived' });
    await proxy.catalogue.syncNow();
    const { code, out, err } = await check([], { DATA_DIR: dataDir });
    assert.equal(code, 0, err + out);
    assert.match(out, /^No problem found in the \d+ listed offers \(catalogue of .+, synced .+\)\.$/m);
    const json = await check(['--json', '--lang=fr'], { DATA_DIR: dataDir });
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(OfferReports.parse(JSON.parse(json.out)), []);
    const english = await check(['--json', '--lang=en'], { DATA_DIR: dataDir });
    assert.equal(english.code, 1, english.err);
    const rules = new Set(OfferReports.parse(JSON.parse(english.out)).flatMap((r) => r.problems.map((p) => p.rule)));
    assert.deepEqual([...rules], ['not_in_board_language']);
  });

  it('exits 2 with what to do when the check cannot run: no catalogue there, a wrong option', async () => {
    const empty = await check([], { DATA_DIR: join(tmp, 'empty') });
    assert.equal(empty.code, 2);
    assert.match(empty.err, /^No catalogue in .+empty \(no catalogue\.db there\): pass the proxy's data directory/);
    assert.equal(empty.out, '');
    const lang = await check(['--lang', 'de'], { DATA_DIR: dataDir });
    assert.equal(lang.code, 2);
    assert.equal(lang.err, `--lang must be one of fr, en, es, the board's language (it is "de").\n`);
    const unknown = await check(['--strict'], { DATA_DIR: dataDir });
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /Unknown option '--strict'/);
    assert.doesNotMatch(`${empty.err}${lang.err}${unknown.err}`, /\n\s+at /);
  });

  it(
    'with DATABASE_URL, reads the catalogue the instances share, not a data directory',
    { skip: skipWithoutPostgres() },
    async () => {
      const databaseUrl = await freshDatabase();
      const shared = await startDemoBoardProxy(sandbox.url, {
        DATA_DIR: join(tmp, 'instance'),
        DATABASE_URL: databaseUrl,
      });
      try {
        // An English board: the French offers still listed are not in its language.
        const expected = offerProblems(shared.catalogue.store, { lang: 'en' }).filter((r) => r.problems.length > 0);
        assert.ok(expected.length > 0);
        const { code, out, err } = await check(['--json', '--lang', 'en'], {
          DATABASE_URL: databaseUrl,
          DATA_DIR: join(tmp, 'elsewhere'),
        });
        assert.equal(code, 1, err);
        assert.deepEqual(OfferReports.parse(JSON.parse(out)), expected);
      } finally {
        await shared.close();
      }
    },
  );
});
