// The JobPosting against Google's rules for job postings (Search Central,
// "Job posting structured data"): every offer of the demo catalogue, synced
// from the seeded sandbox through the proxy, carries the required properties
// and the recommended ones the service gives; and the fallbacks for what an
// offer lacks (no place, no end date, no company name).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/index.ts';
import type { RunningSandbox } from '../../sandbox/index.ts';
import { EMPLOYMENT_TYPES, JobPostingAnswer } from '../../public-api/schemas.ts';
import type { RunningProxy } from '../index.ts';
import { fetch, startDemoBoardProxy } from '../test-support.ts';
import { toCatalogueCampaign } from './catalogue.ts';
import { addressOf, cityInFrance, placeAt, upstreamCampaign } from './fixtures.test-support.ts';
import { DEFAULT_VALID_DAYS, jobPosting, listUrlOf } from './job-posting.ts';
import { GOOGLE_RECOMMENDED, GOOGLE_REQUIRED } from './offer-checks/index.ts';

type Posting = Record<string, unknown> & JobPostingAnswer;

/** Every problem Google's rules find in one posting; `hasSalary`: the offer gives one, so baseSalary is due. */
function googleProblems(posting: Posting, hasSalary: boolean, now: Date): string[] {
  const problems: string[] = [];
  // jobLocation, or TELECOMMUTE without one: below.
  for (const name of GOOGLE_REQUIRED.filter((n) => n !== 'jobLocation'))
    if (posting[name] === undefined || posting[name] === '') problems.push(`required ${name} missing`);
  if (!posting.hiringOrganization?.name) problems.push('hiringOrganization.name missing');
  if (posting.jobLocation === undefined) {
    if (posting.jobLocationType !== 'TELECOMMUTE') problems.push('neither jobLocation nor jobLocationType TELECOMMUTE');
  } else if (!posting.jobLocation.address.addressCountry) problems.push('jobLocation.address.addressCountry missing');
  for (const name of GOOGLE_RECOMMENDED) {
    if (name === 'baseSalary' && !hasSalary) continue;
    if (posting[name] === undefined) problems.push(`recommended ${name} missing`);
  }
  if (Number.isNaN(Date.parse(posting.datePosted))) problems.push('datePosted is not an ISO 8601 date');
  if (posting.validThrough !== undefined && !(Date.parse(posting.validThrough) > now.getTime()))
    problems.push(`validThrough ${posting.validThrough} is not in the future: Google takes the job as expired`);
  const types = [posting.employmentType ?? []].flat();
  if (types.some((t) => !(EMPLOYMENT_TYPES as readonly string[]).includes(t)))
    problems.push(`employmentType ${types.join(',')} is not one of Google's`);
  if (
    posting.baseSalary &&
    posting.baseSalary.value.minValue === undefined &&
    posting.baseSalary.value.maxValue === undefined
  )
    problems.push('baseSalary without a value');
  return problems;
}

describe('JobPosting', () => {
  const now = new Date('2026-11-26T12:00:00.000Z');
  const context = { offerUrl: null, companyAddress: null, now };

  it('without an end date is valid DEFAULT_VALID_DAYS after the later of listing and now: an open offer never looks expired', () => {
    const old = toCatalogueCampaign(
      upstreamCampaign({ date_end: null, last_activation_at: '2026-01-02T10:00:00.000Z' }),
    );
    assert.equal(jobPosting(old, context).validThrough, '2027-01-25T23:59:59Z');
    const fresh = toCatalogueCampaign(
      upstreamCampaign({ date_end: null, last_activation_at: '2026-12-01T10:00:00.000Z' }),
    );
    assert.equal(jobPosting(fresh, context).validThrough, '2027-01-30T23:59:59Z');
    assert.equal(DEFAULT_VALID_DAYS, 60);
    const ending = toCatalogueCampaign(upstreamCampaign({ date_end: '2027-03-31' }));
    assert.equal(jobPosting(ending, context).validThrough, '2027-03-31T23:59:59Z');
  });

  it("places an offer without an address at its company's, one with a city alone in its company's country, and one with neither as TELECOMMUTE", () => {
    const companyAddress = {
      ...cityInFrance('Lyon'),
      street_number: '3',
      street: 'quai Saint-Antoine',
      postal_code: '69002',
    };
    const homeless = toCatalogueCampaign(upstreamCampaign({ address: null }));
    assert.deepEqual(
      jobPosting(homeless, { ...context, companyAddress }).jobLocation,
      placeAt({
        streetAddress: '3 quai Saint-Antoine',
        postalCode: '69002',
        addressLocality: 'Lyon',
        addressCountry: 'France',
      }),
    );
    const cityOnly = toCatalogueCampaign(
      upstreamCampaign({
        address: addressOf({ city: 'Nantes' }),
      }),
    );
    assert.deepEqual(
      jobPosting(cityOnly, { ...context, companyAddress }).jobLocation,
      placeAt({ addressLocality: 'Nantes', addressCountry: 'France' }),
    );
    const remote = jobPosting(homeless, context);
    assert.equal(remote.jobLocationType, 'TELECOMMUTE');
    assert.equal('jobLocation' in remote, false);
    JobPostingAnswer.parse(remote);
  });

  it('always names the hiring organisation, by its number when the service gives no name', () => {
    const nameless = { ...toCatalogueCampaign(upstreamCampaign({ company_id: 7 })), company_name: null };
    const posting = jobPosting(nameless, context) as Posting;
    assert.deepEqual(posting.hiringOrganization, { '@type': 'Organization', name: 'Company 7' });
    assert.deepEqual(googleProblems(posting, true, now), []);
  });

  it("gives the board's list from the offer URL's template: without the id's parameter, or its path segment", () => {
    assert.equal(
      listUrlOf('https://jobs.acme.example/offres?lang=fr&offer={id}#top'),
      'https://jobs.acme.example/offres?lang=fr',
    );
    assert.equal(listUrlOf('https://jobs.acme.example/offres/{id}'), 'https://jobs.acme.example/offres/');
    assert.equal(listUrlOf('https://jobs.acme.example/offres/job-{id}.html'), 'https://jobs.acme.example/offres/');
    assert.equal(listUrlOf(null), null);
  });

  it('finds the problems it looks for (an offer with nothing known fails the checks)', () => {
    const bare = {
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: '',
      description: 'x',
      datePosted: 'yesterday',
      hiringOrganization: { '@type': 'Organization', name: '' },
      validThrough: '2020-01-01T00:00:00Z',
    } as unknown as Posting;
    assert.deepEqual(googleProblems(bare, true, now), [
      'required title missing',
      'hiringOrganization.name missing',
      'neither jobLocation nor jobLocationType TELECOMMUTE',
      'recommended employmentType missing',
      'recommended baseSalary missing',
      'recommended identifier missing',
      'recommended directApply missing',
      'datePosted is not an ISO 8601 date',
      'validThrough 2020-01-01T00:00:00Z is not in the future: Google takes the job as expired',
    ]);
  });

  describe('of every offer of the demo', () => {
    let sandbox: RunningSandbox;
    let proxy: RunningProxy;
    const dataDir = mkdtempSync(join(tmpdir(), 'jobposting-demo-'));

    before(async () => {
      sandbox = await startSandbox({ admin: true, seed: 'demo', rateLimitPerMinute: 0 });
      proxy = await startDemoBoardProxy(sandbox.url, {
        BOARD_OFFER_URL: 'https://jobs.demo.example/offers?offer={id}',
        DATA_DIR: dataDir,
      });
    });
    after(async () => {
      await proxy?.close();
      await sandbox?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("has Google's required properties and its recommended ones, with no problem Google would report", async () => {
      const list = (await (await fetch(`${proxy.url}/api/campaigns?per_page=50`)).json()) as {
        items: { id: number; salary_min: number | null; salary_max: number | null }[];
        total: number;
      };
      assert.ok(list.total > 0 && list.items.length === list.total, 'the demo broadcasts offers, all on one page');
      for (const offer of list.items) {
        const res = await fetch(`${proxy.url}/api/campaigns/${offer.id}/jobposting`);
        assert.equal(res.status, 200);
        const posting = JobPostingAnswer.parse(await res.json()) as Posting;
        assert.deepEqual(
          googleProblems(posting, offer.salary_min !== null || offer.salary_max !== null, new Date()),
          [],
          `offer ${offer.id}`,
        );
        assert.equal(posting.url, `https://jobs.demo.example/offers?offer=${offer.id}`);
      }
    });
  });
});
