// The proxy's problem codes and per-field codes, from their one catalogue:
// the widget says each in the candidate's language, so a code added to the
// proxy without a message here (or with an untranslated one) fails.
import { expect } from '@open-wc/testing';
import { FIELD_CODES, PROBLEM_CODES } from '../../../server/public-api/problems.ts';
import type { ProblemCode } from '../../../server/public-api/problems.ts';
import { useLocale } from './localize.ts';
import { fieldMessage, problemMessage } from './messages.ts';
import { locales } from './test-support.ts';

/**
 * Codes a candidate only meets through a fault on our side (the widget always
 * sends a well-formed body and a fresh key), or never (the widget does not
 * read the sitemap, the feed, the head of a server-rendered page nor the board's stats): they get the generic message.
 */
const GENERIC: readonly ProblemCode[] = [
  'internal_error',
  'malformed_request',
  'method_not_allowed',
  'idempotency_key_missing',
  'idempotency_key_reused',
  'sitemap_not_configured',
  'feed_not_configured',
  // The alert panel offers the email hand-off only when /api/config says it is on.
  'alerts_not_configured',
  'campaign_gone',
  // The board's dashboard and GET /api/stats, which only the board's own people call.
  'unauthorized',
  // The funnel's beacons, whose answers the widget never reads (navigator.sendBeacon).
  'funnel_disabled',
  'beacon_invalid',
  'beacon_offer_unknown',
];

/** For each language but English, the codes whose message reads as it does in English. */
async function untranslated<C>(codes: readonly C[], message: (code: C) => string): Promise<Record<string, C[]>> {
  await useLocale('en');
  const english = codes.map(message);
  const found: Record<string, C[]> = {};
  for (const lang of locales.filter((l) => l !== 'en')) {
    await useLocale(lang);
    found[lang] = codes.filter((code, i) => message(code) === english[i]);
  }
  return found;
}

describe("the proxy's problem codes", () => {
  afterEach(() => useLocale('en'));

  it('each have a message of their own in English, except the ones only a fault on our side causes', async () => {
    await useLocale('en');
    const generic = problemMessage('internal_error');
    const withoutMessage = PROBLEM_CODES.filter((code) => !GENERIC.includes(code) && problemMessage(code) === generic);
    expect(withoutMessage).to.deep.equal([]);
  });

  it('each have their message translated to French and Spanish', async () => {
    expect(await untranslated(PROBLEM_CODES, problemMessage)).to.deep.equal({ fr: [], es: [] });
  });
});

describe("the proxy's per-field codes", () => {
  afterEach(() => useLocale('en'));

  it('each have a message of their own in English, but invalid_value, which is the generic one', async () => {
    await useLocale('en');
    const generic = fieldMessage('invalid_value');
    expect(FIELD_CODES.filter((code) => code !== 'invalid_value' && fieldMessage(code) === generic)).to.deep.equal([]);
  });

  it('each have their message translated to French and Spanish', async () => {
    expect(await untranslated(FIELD_CODES, fieldMessage)).to.deep.equal({ fr: [], es: [] });
  });
});
