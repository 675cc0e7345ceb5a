// The checks of each broadcast offer against the law of job ads and Google's
// job-posting fields (server/proxy/README.md, "Offer checks"). In France the
// site that publishes an ad shares the liability for it: it must be dated,
// in French, set no upper age limit and state no criterion the labour code
// forbids; the EU pay transparency directive brings a pay range; search
// engines want their properties; a closed offer must go. Pure: an offer in,
// its problems out. They never hide nor block an offer: the board decides.
import type { Locale } from '../../../contract/values.ts';
import type { OfferProblem, OfferReport, OfferRule } from '../../../public-api/offer-checks.ts';
import { companyAddressOf, jobPosting } from '../job-posting.ts';
import type { CatalogueAddress, CatalogueCampaign, CatalogueStore } from '../types.ts';
import { UPPER_AGE_LIMIT, forbiddenCriteria, quotesOf } from './criteria.ts';
import { GOOGLE_RECOMMENDED, GOOGLE_REQUIRED, missingProperties } from './google-fields.ts';
import type { PublishedPosting } from './google-fields.ts';
import { guessLanguage, readsAsOtherLanguage } from './language.ts';
import { offerText } from './text.ts';
import type { OfferText } from './text.ts';

export { OFFER_RULES } from '../../../public-api/offer-checks.ts';
export type { OfferProblem, OfferReport, OfferRule } from '../../../public-api/offer-checks.ts';
export { CRITERIA } from './criteria.ts';
export type { Criterion } from './criteria.ts';
export { GOOGLE_RECOMMENDED, GOOGLE_REQUIRED } from './google-fields.ts';

const CODE_DU_TRAVAIL = 'https://www.legifrance.gouv.fr/codes/texte_lc/LEGITEXT000006072050';
const GOOGLE_JOB_POSTING = 'https://developers.google.com/search/docs/appearance/structured-data/job-posting';

/** Where each rule comes from: the law or the guideline, with a link. */
export const OFFER_RULE_SOURCES: Record<OfferRule, string> = {
  pay_range_missing:
    "Directive (EU) 2023/970 on pay transparency, art. 5 (the pay, or its range, told to candidates before the interview; France's draft transposition asks for it in the ad): https://eur-lex.europa.eu/eli/dir/2023/970/oj",
  date_missing: `Code du travail, art. L5332-1 (a published job ad is dated): ${CODE_DU_TRAVAIL}; Google requires datePosted: ${GOOGLE_JOB_POSTING}`,
  not_in_french: `Code du travail, art. L5331-4 (a job ad is written in French; loi n° 94-665 of 4 August 1994, "loi Toubon"): ${CODE_DU_TRAVAIL}`,
  not_in_board_language:
    "The board's language (BOARD_LANG, server/proxy/README.md): its visitors read its pages in it, and search engines tell a page's language from its visible text (on a French board the law's rule applies instead, not_in_french): https://developers.google.com/search/docs/specialty/international/managing-multi-regional-sites",
  upper_age_limit: `Code du travail, art. L5331-2 (no upper age limit in a job ad, unless a law sets one) and L1132-1: ${CODE_DU_TRAVAIL}`,
  forbidden_criterion: `Code du travail, art. L1132-1 (the grounds no hiring may rest on) and L1142-1 (sex, family situation, pregnancy); Code pénal, art. 225-1 and 225-2: ${CODE_DU_TRAVAIL}`,
  jobposting_required_missing: `Google Search Central, job posting structured data, required properties: ${GOOGLE_JOB_POSTING}`,
  jobposting_recommended_missing: `Google Search Central, job posting structured data, recommended properties: ${GOOGLE_JOB_POSTING}`,
  closed_still_listed: `Code du travail, art. L5331-3 (no ad misleading about whether the job exists and is available): ${CODE_DU_TRAVAIL}; Google Search Central, job posting structured data (remove expired postings, validThrough): ${GOOGLE_JOB_POSTING}`,
};

/** What one offer is checked against besides itself. */
export interface OfferCheckContext {
  /** The time of the check: an end date before it has passed. */
  now: Date;
  /** The board's language (BOARD_LANG; `fr`, the default): the ad's text must be in it. */
  lang?: Locale;
  /** An address of the offer's company for its JobPosting (companyAddressOf); null when none is known. */
  companyAddress?: CatalogueAddress | null;
}

function problem(rule: OfferRule, message: string, detail?: string): OfferProblem {
  return { rule, message, source: OFFER_RULE_SOURCES[rule], ...(detail === undefined ? {} : { detail }) };
}

const amount = (n: number) => n.toLocaleString('en-GB');

function payRange(c: CatalogueCampaign): OfferProblem | null {
  const { salary_min: min, salary_max: max } = c;
  if (min !== null && max !== null) return null;
  const detail =
    min === null && max === null
      ? 'no salary_min, no salary_max'
      : min !== null
        ? `only a minimum (${amount(min)}), no maximum`
        : `only a maximum (${amount(max!)}), no minimum`;
  return problem(
    'pay_range_missing',
    'No pay range: candidates must be told the pay or its range. Ask the company to give the offer its salary_min and salary_max (gross, a year; a month for internships; the same figure twice for a fixed pay).',
    detail,
  );
}

function datePosted(posting: PublishedPosting): OfferProblem | null {
  const date = posting.datePosted;
  if (typeof date === 'string' && !Number.isNaN(Date.parse(date))) return null;
  return problem(
    'date_missing',
    'No publication date: a job ad must be dated, and its JobPosting needs datePosted. The date comes from when the offer was last activated (else created) in the recruitment service: ask the company to check the offer there.',
    `datePosted: ${date === undefined || date === '' ? 'none' : JSON.stringify(date)}`,
  );
}

const LANGUAGE_NAMES: Record<Locale, string> = { fr: 'French', en: 'English', es: 'Spanish' };

/**
 * The text in another language than the board's. On a French board it is the law's rule, under its own code
 * (not_in_french, which a board's scripts may key on); on another board, not_in_board_language.
 */
function notInBoardLanguage(c: CatalogueCampaign, folded: string, lang: Locale): OfferProblem | null {
  const guess = guessLanguage(folded);
  if (guess.language === null || !readsAsOtherLanguage(guess, lang)) return null;
  const [name, board] = [LANGUAGE_NAMES[guess.language], LANGUAGE_NAMES[lang]];
  const detail = `common words: ${guess.counts.fr} French, ${guess.counts.en} English, ${guess.counts.es} Spanish (a count of small words, not a translation check)`;
  if (lang === 'fr')
    return problem(
      'not_in_french',
      `The text reads as ${name}, not French: on a French board a job ad is written in French (a version in another language may come beside the French one). Ask the company for the French text of offer ${c.id}.`,
      detail,
    );
  return problem(
    'not_in_board_language',
    `The text reads as ${name}, not ${board}, the board's language (BOARD_LANG): its visitors may not read it. Ask the company for the ${board} text of offer ${c.id}, or set BOARD_LANG to the language of the board's offers.`,
    detail,
  );
}

function criteria(text: OfferText): OfferProblem[] {
  const problems: OfferProblem[] = [];
  const ageQuotes = quotesOf(UPPER_AGE_LIMIT, text);
  if (ageQuotes.length > 0) {
    problems.push(
      problem(
        'upper_age_limit',
        `The text sets an upper age limit (${ageQuotes.join(', ')}): a job ad may not, unless a law sets that limit for the job (an apprenticeship's, for instance). Ask the company to remove it or to name the law.`,
        `age: ${ageQuotes.join(', ')}`,
      ),
    );
  }
  for (const { criterion, quotes } of forbiddenCriteria(text)) {
    problems.push(
      problem(
        'forbidden_criterion',
        `The text states a criterion of ${criterion} (${quotes.join(', ')}): the labour code forbids choosing candidates on it. Ask the company to reword the offer around the job's real requirements.`,
        `${criterion}: ${quotes.join(', ')}`,
      ),
    );
  }
  return problems;
}

/** Properties another rule reports already (with the law behind it): datePosted, baseSalary. */
const REQUIRED_HERE = GOOGLE_REQUIRED.filter((p) => p !== 'datePosted');
const RECOMMENDED_HERE = GOOGLE_RECOMMENDED.filter((p) => p !== 'baseSalary');

function googleFields(c: CatalogueCampaign, posting: PublishedPosting): OfferProblem[] {
  const problems: OfferProblem[] = [];
  const required = missingProperties(REQUIRED_HERE, posting, c);
  if (required.length > 0) {
    problems.push(
      problem(
        'jobposting_required_missing',
        `The offer's JobPosting lacks what Google requires, so search engines leave it out of their job search: ${required.map((r) => r.split(' ')[0]).join(', ')}. Ask the company to fill the offer's title, description, company name and address in the recruitment service.`,
        required.join('; '),
      ),
    );
  }
  const recommended = missingProperties(RECOMMENDED_HERE, posting, c);
  if (recommended.length > 0) {
    problems.push(
      problem(
        'jobposting_recommended_missing',
        `The offer's JobPosting lacks what Google recommends: ${recommended.join(', ')}. For employmentType, ask the company to give the offer its contract type (job_type) or working time.`,
        recommended.join('; '),
      ),
    );
  }
  return problems;
}

function closedStillListed(c: CatalogueCampaign, posting: PublishedPosting, now: Date): OfferProblem | null {
  if (c.status !== 'online') {
    return problem(
      'closed_still_listed',
      `The offer is ${c.status} in the recruitment service but still listed here: take it off the board (the catalogue's next sync does) and check with the company whether it is still open.`,
      `status: ${c.status}`,
    );
  }
  const until = typeof posting.validThrough === 'string' ? Date.parse(posting.validThrough) : Number.NaN;
  if (!(until < now.getTime())) return null;
  return problem(
    'closed_still_listed',
    `The offer ended on ${c.date_end ?? String(posting.validThrough)} and is still listed: search engines take it as expired, candidates apply to a closed job. The service pauses an offer on its end date and the catalogue's next sync takes it off; if it stays, ask the company to close it, or to move its end date if it is still open.`,
    `date_end: ${c.date_end ?? 'none'}, validThrough: ${String(posting.validThrough)}, checked at ${now.toISOString()}`,
  );
}

/** The problems of one broadcast offer, in the order of OFFER_RULES; none when it passes every check. */
export function checkOffer(c: CatalogueCampaign, context: OfferCheckContext): OfferProblem[] {
  const { now, lang = 'fr', companyAddress = null } = context;
  // What search engines read of the offer: the posting the proxy publishes, fallbacks included.
  const posting = jobPosting(c, { offerUrl: null, companyAddress, now }) as unknown as PublishedPosting;
  const text = offerText(c);
  const found = [
    payRange(c),
    datePosted(posting),
    notInBoardLanguage(c, text.folded, lang),
    ...criteria(text),
    ...googleFields(c, posting),
    closedStillListed(c, posting, now),
  ];
  return found.filter((p): p is OfferProblem => p !== null);
}

/** Every offer with its problems (an empty list when it has none), in the order given. */
export function checkOffers(
  offers: readonly CatalogueCampaign[],
  context: Omit<OfferCheckContext, 'companyAddress'> & {
    /** The address of an offer's company, for offers without one (companyAddressOf over the catalogue). */
    companyAddressOf?: (c: CatalogueCampaign) => CatalogueAddress | null;
  },
): OfferReport[] {
  const { companyAddressOf: addressOf, ...shared } = context;
  return offers.map((c) => ({
    id: c.id,
    title: c.name,
    company_name: c.company_name,
    problems: checkOffer(c, { ...shared, companyAddress: addressOf?.(c) ?? null }),
  }));
}

/**
 * The problems of every offer a proxy's catalogue lists (what the board
 * shows), read from its store: for the dashboard and `offers check`. Each
 * offer, by id, with its problems (none when it has none).
 */
export function offerProblems(
  store: Pick<CatalogueStore, 'listedIds' | 'get' | 'search'>,
  options: { now?: Date; lang?: Locale } = {},
): OfferReport[] {
  const offers = store
    .listedIds()
    .sort((a, b) => a - b)
    .map((id) => store.get(id))
    .filter((c): c is CatalogueCampaign => c !== undefined);
  return checkOffers(offers, {
    now: options.now ?? new Date(),
    ...(options.lang === undefined ? {} : { lang: options.lang }),
    companyAddressOf: (c) => companyAddressOf(store, c),
  });
}
