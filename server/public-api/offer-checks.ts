// What the offer checks find in the broadcast offers (server/proxy/README.md,
// "Offer checks"): for each offer, the problems of the law of job ads and of
// Google's job-posting fields, each naming its rule and where the rule comes
// from. A public contract: `jobboard-connector offers check --json` prints it,
// and the board's dashboard shows it. The checks never hide an offer.
import { z } from 'zod';

/**
 * The rules, by stable code (a board's scripts may key on them):
 * - pay_range_missing: no pay range (EU pay transparency directive);
 * - date_missing: no publication date (an ad must be dated);
 * - not_in_french: the text is not in French on a French board (BOARD_LANG=fr, the default);
 * - not_in_board_language: the text is not in the board's language on an English or Spanish board (BOARD_LANG);
 * - upper_age_limit: the text sets an upper age limit;
 * - forbidden_criterion: the text states a criterion the labour code forbids (sex, origin, family situation...);
 * - jobposting_required_missing: the JobPosting lacks a property Google requires;
 * - jobposting_recommended_missing: the JobPosting lacks a property Google recommends;
 * - closed_still_listed: the offer ended (its end date passed, or its status says so) and is still listed.
 */
export const OFFER_RULES = [
  'pay_range_missing',
  'date_missing',
  'not_in_french',
  'not_in_board_language',
  'upper_age_limit',
  'forbidden_criterion',
  'jobposting_required_missing',
  'jobposting_recommended_missing',
  'closed_still_listed',
] as const;
export type OfferRule = (typeof OFFER_RULES)[number];

/** One problem of one offer. */
export const OfferProblem = z.object({
  rule: z.enum(OFFER_RULES),
  /** What is wrong and what to do, in English. */
  message: z.string(),
  /** The law or guideline the rule comes from, with a link where one exists. */
  source: z.string(),
  /** What was found: the words matched (quoted, short), the fields missing, the dates. */
  detail: z.string().optional(),
});
export type OfferProblem = z.infer<typeof OfferProblem>;

/** One broadcast offer and its problems (none when it passes every check). */
export const OfferReport = z.object({
  id: z.number().int(),
  title: z.string().nullable(),
  company_name: z.string().nullable(),
  problems: z.array(OfferProblem),
});
export type OfferReport = z.infer<typeof OfferReport>;

/** What `offers check --json` prints: the offers with at least one problem. */
export const OfferReports = z.array(OfferReport);
export type OfferReports = z.infer<typeof OfferReports>;
