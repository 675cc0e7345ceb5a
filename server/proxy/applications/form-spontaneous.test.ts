// The form of a spontaneous application: company_id in place of campaign_id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_FIELD_MODES } from '../../public-api/application-form.ts';
import { NO_CAMPAIGN } from '../storage/outbox/application-store.ts';
import { checkForm } from './form.ts';
import type { ParsedForm } from './multipart.ts';

const CANDIDATE = {
  email: 'ada@example.org',
  first_name: 'Ada',
  last_name: 'Lovelace',
  is_legals_accepted_by_manager: 'true',
};

function check(fields: Record<string, string>) {
  const form: ParsedForm = {
    fields: new Map(Object.entries({ ...CANDIDATE, ...fields })),
    truncated: new Set(),
    resume: undefined,
    pages: [],
    pagesSent: 0,
  };
  return checkForm(form, DEFAULT_FIELD_MODES);
}

const problems = (fields: Record<string, string>) => check(fields).errors.map((e) => [e.field, e.code, e.message]);

describe('checkForm: a spontaneous application (company_id)', () => {
  it('takes company_id in place of campaign_id: the company, and no offer', () => {
    const { errors, checked } = check({ company_id: ' 34 ' });
    assert.deepEqual(errors, []);
    assert.equal(checked?.companyId, 34);
    assert.equal(checked?.campaignId, NO_CAMPAIGN);
  });

  it('an application to an offer has no company_id of its own', () => {
    const { checked } = check({ campaign_id: '12' });
    assert.equal(checked?.campaignId, 12);
    assert.equal(checked?.companyId, undefined);
  });

  it('refuses both at once, saying to send one', () => {
    assert.deepEqual(problems({ campaign_id: '12', company_id: '34' }), [
      [
        'company_id',
        'invalid_value',
        'Send campaign_id (an application to that offer) or company_id (a spontaneous application to that company), not both.',
      ],
    ]);
  });

  it('refuses neither, naming both ways', () => {
    assert.deepEqual(problems({}), [
      [
        'campaign_id',
        'required',
        'Send campaign_id (the job offer), or company_id for a spontaneous application to a company that takes them.',
      ],
    ]);
  });

  it('takes the greatest id JavaScript holds exactly, and the candidate with it', () => {
    const { errors, checked } = check({ company_id: '9007199254740991' });
    assert.deepEqual(errors, []);
    assert.equal(checked?.companyId, Number.MAX_SAFE_INTEGER);
    // The candidate's payload, as to an offer.
    assert.deepEqual(checked?.payload, check({ campaign_id: '12' }).checked?.payload);
  });

  it('refuses a company_id that is no id', () => {
    for (const id of ['0', '034', 'acme', '1.5', '-3', '12345678901234567', '9007199254740992'])
      assert.deepEqual(
        problems({ company_id: id }),
        [['company_id', 'invalid_value', 'Must be the id of a company.']],
        id,
      );
  });

  it('refuses a cover letter: with no offer, the service has no application to keep it on', () => {
    assert.deepEqual(problems({ company_id: '34', cover_letter: 'Dear recruiter' }), [
      [
        'cover_letter',
        'invalid_value',
        'A spontaneous application carries no cover letter (the recruiter receives your profile and resume): leave it empty.',
      ],
    ]);
  });
});
