// The checks of one offer: a compliant offer passes them all, and an offer
// that breaks one rule is flagged by that rule alone, with what to do and the
// law or guideline behind it. Then the checks over a catalogue's store, as
// the dashboard and `offers check` run them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Campaign, Locale } from '../../../contract/index.ts';
import { OfferReports } from '../../../public-api/offer-checks.ts';
import { openCatalogueStore } from '../../storage/catalogue/catalogue-sqlite.ts';
import { toCatalogueCampaign } from '../campaign-record.ts';
import { upstreamCampaign } from '../fixtures.test-support.ts';
import type { CatalogueCampaign } from '../types.ts';
import { OFFER_RULES, OFFER_RULE_SOURCES, checkOffer, checkOffers, offerProblems } from './index.ts';
import type { OfferCheckContext, OfferRule } from './index.ts';

const now = new Date('2026-11-26T12:00:00.000Z');

/** An offer that passes every check: French text, dated, a pay range, every property Google asks for. */
function compliant(overrides: Partial<Campaign> = {}): CatalogueCampaign {
  return toCatalogueCampaign(
    upstreamCampaign({
      name: 'Développeur·se back-end (H/F)',
      description:
        '<p>Rejoignez notre équipe à Lyon pour concevoir les services de paiement utilisés chaque jour par des milliers de clients. Vous travaillez avec les équipes produit et support, dans une entreprise familiale de 40 personnes.</p>',
      profile:
        '<p>Vous avez une première expérience du développement web et vous aimez le travail en équipe. Poste ouvert aux personnes en situation de handicap.</p>',
      date_end: '2027-01-31',
      ...overrides,
    }),
  );
}

const rulesOf = (c: CatalogueCampaign, context: OfferCheckContext = { now }) =>
  checkOffer(c, context).map((p) => p.rule);

/** One offer per rule, breaking that rule only (on a French board unless `lang` says). */
const BREAKING: Record<OfferRule, { what: string; offer: () => CatalogueCampaign; lang?: Locale }> = {
  pay_range_missing: { what: 'gives no salary', offer: () => compliant({ salary_min: null, salary_max: null }) },
  date_missing: { what: 'has no publication date', offer: () => ({ ...compliant(), listed_at: '' }) },
  not_in_french: {
    what: 'is written in English',
    offer: () =>
      compliant({
        description:
          '<p>Join our team in Lyon to build the payment services that thousands of customers rely on every day. You will work with the product and support teams.</p>',
        profile: '<p>You have a first experience of web development and you enjoy working in a team.</p>',
      }),
  },
  not_in_board_language: {
    what: 'is written in French on an English board',
    offer: () => compliant(),
    lang: 'en',
  },
  upper_age_limit: {
    what: 'sets an upper age limit',
    offer: () => compliant({ profile: '<p>Vous avez moins de 30 ans et une première expérience du web.</p>' }),
  },
  forbidden_criterion: {
    what: 'reserves the job to men',
    offer: () => compliant({ profile: '<p>Poste réservé aux hommes, avec une première expérience du web.</p>' }),
  },
  jobposting_required_missing: {
    what: "has no company name (the posting's organisation is a stand-in)",
    offer: () => compliant({ company_name: undefined }),
  },
  jobposting_recommended_missing: {
    what: 'gives neither contract type nor working time (no employmentType)',
    offer: () => compliant({ job_type: null, working_time: null }),
  },
  closed_still_listed: {
    what: 'ended before the check and is still listed',
    offer: () => compliant({ date_end: '2026-11-20' }),
  },
};

describe('checkOffer', () => {
  it('finds no problem in an offer in French, dated, with a pay range and every property Google asks for', () => {
    assert.deepEqual(checkOffer(compliant(), { now }), []);
  });

  for (const rule of OFFER_RULES) {
    const { what, offer, lang } = BREAKING[rule];
    it(`flags an offer that ${what} by ${rule} alone, with what to do and where the rule comes from`, () => {
      const problems = checkOffer(offer(), { now, ...(lang === undefined ? {} : { lang }) });
      assert.deepEqual(
        problems.map((p) => p.rule),
        [rule],
      );
      assert.equal(problems[0]!.source, OFFER_RULE_SOURCES[rule]);
      assert.match(problems[0]!.source, /https:\/\//);
      assert.match(problems[0]!.message, /: /);
    });
  }

  it('names the criterion and quotes the words that state it', () => {
    const [problem] = checkOffer(BREAKING.forbidden_criterion.offer(), { now });
    assert.equal(problem?.detail, 'sex: "réservé aux hommes"');
    assert.match(problem!.message, /criterion of sex \("réservé aux hommes"\)/);
    const [age] = checkOffer(BREAKING.upper_age_limit.offer(), { now });
    assert.equal(age?.detail, 'age: "moins de 30 ans"');
  });

  it('takes a single salary figure as no range, and the same figure twice as a fixed pay', () => {
    const [onlyMin] = checkOffer(compliant({ salary_max: null }), { now });
    assert.equal(onlyMin?.detail, 'only a minimum (42,000), no maximum');
    assert.deepEqual(rulesOf(compliant({ salary_min: 38000, salary_max: 38000 })), []);
  });

  it("checks the text is in the board's language: not_in_french on a French board (the default), not_in_board_language on another", () => {
    const english = BREAKING.not_in_french.offer();
    assert.deepEqual(rulesOf(english), ['not_in_french']);
    assert.deepEqual(rulesOf(english, { now, lang: 'fr' }), ['not_in_french']);
    assert.deepEqual(checkOffer(english, { now, lang: 'en' }), []);
    const [onSpanishBoard] = checkOffer(english, { now, lang: 'es' });
    assert.equal(onSpanishBoard?.rule, 'not_in_board_language');
    assert.match(
      onSpanishBoard!.message,
      /^The text reads as English, not Spanish, the board's language \(BOARD_LANG\)/,
    );
    assert.match(onSpanishBoard!.detail!, /^common words: \d+ French, \d+ English, \d+ Spanish/);
    const french = compliant();
    assert.deepEqual(rulesOf(french, { now, lang: 'en' }), ['not_in_board_language']);
    assert.deepEqual(rulesOf(french, { now, lang: 'es' }), ['not_in_board_language']);
  });

  it("reads the place from the published JobPosting: without an address, its company's; with neither, remote (TELECOMMUTE), flagged", () => {
    const placeless = compliant({ address: null });
    const [problem] = checkOffer(placeless, { now });
    assert.equal(problem?.rule, 'jobposting_required_missing');
    assert.match(problem!.detail!, /^jobLocation \(.*TELECOMMUTE\)$/);
    const companyAddress = compliant().address;
    assert.deepEqual(checkOffer(placeless, { now, companyAddress }), []);
  });

  it('takes a description that is only the title, as the posting repeats it, as missing', () => {
    const [problem] = checkOffer(compliant({ description: null, profile: null }), { now });
    assert.equal(problem?.rule, 'jobposting_required_missing');
    assert.match(problem!.detail!, /^description \(the offer has none/);
  });

  it('flags an offer whose status is no longer online, and one whose end date is today not yet', () => {
    const paused = { ...compliant(), status: 'standby' as const };
    assert.deepEqual(rulesOf(paused), ['closed_still_listed']);
    assert.equal(checkOffer(paused, { now })[0]?.detail, 'status: standby');
    assert.deepEqual(rulesOf(compliant({ date_end: '2026-11-26' })), []);
  });
});

describe('offerProblems', () => {
  it("checks every offer the catalogue lists, with its company's address for one without, in the public schema", () => {
    const store = openCatalogueStore(':memory:');
    try {
      const withAddress = compliant({ id: 1, company_id: 7 });
      const placeless = compliant({ id: 2, company_id: 7, address: null });
      const unpaid = compliant({ id: 3, salary_min: null, salary_max: null });
      const paused = { ...compliant({ id: 4 }), status: 'standby' as const };
      store.replaceAll([withAddress, placeless, unpaid, paused], now);
      const reports = OfferReports.parse(offerProblems(store, { now }));
      assert.deepEqual(
        reports.map((r) => [r.id, r.problems.map((p) => p.rule)]),
        [
          [1, []],
          [2, []],
          [3, ['pay_range_missing']],
        ],
        'the paused offer is not listed, so not checked',
      );
      assert.deepEqual(
        checkOffers([placeless], { now }).map((r) => r.problems.map((p) => p.rule)),
        [['jobposting_required_missing']],
        'without the catalogue, the placeless offer has no address to borrow',
      );
    } finally {
      store.close();
    }
  });
});
