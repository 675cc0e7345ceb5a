// The application form's checks, on parsed forms (the HTTP tests in
// test/proxy-apply.test.ts send the same rules through the routes).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { DEFAULT_FIELD_MODES, fieldOf, postedName } from '../../public-api/application-form.ts';
import type { ConfigurableField, FieldMode } from '../../public-api/application-form.ts';
import { checkForm, emailBucket, fingerprintOf } from './form.ts';
import type { ParsedForm } from './multipart.ts';

const VALID = {
  campaign_id: '12',
  email: 'ada@example.org',
  first_name: 'Ada',
  last_name: 'Lovelace',
  is_legals_accepted_by_manager: 'true',
};

function parsed(
  fields: Record<string, string>,
  truncated: string[] = [],
  resumeSha256?: string,
  pageSha256s: string[] = [],
): ParsedForm {
  return {
    fields: new Map(Object.entries(fields)),
    truncated: new Set(truncated),
    resume: resumeSha256 === undefined ? undefined : ({ sha256: resumeSha256 } as ParsedForm['resume']),
    pages: pageSha256s.map((sha256) => ({ sha256 }) as ParsedForm['pages'][number]),
    pagesSent: pageSha256s.length,
  };
}

function modes(overrides: Partial<Record<ConfigurableField, FieldMode>> = {}): Record<ConfigurableField, FieldMode> {
  return { ...DEFAULT_FIELD_MODES, ...overrides };
}

/** checkForm on VALID with `fields` put over it. */
function checkValid(fields: Record<string, string> = {}, fieldModes = modes(), trackUtm = false) {
  return checkForm(parsed({ ...VALID, ...fields }), fieldModes, trackUtm);
}

/** The [field, code] of each problem of a form. */
function codes(fields: Record<string, string>, fieldModes = modes(), truncated: string[] = []): [string, string][] {
  return checkForm(parsed(fields, truncated), fieldModes).errors.map((e) => [e.field, e.code]);
}

describe('checkForm', () => {
  it('takes a valid form: the campaign, the applicant as typed (trimmed), the email for its limit and the captcha token', () => {
    const { errors, checked } = checkValid({
      email: '  Ada@Example.org ',
      phone_code: '+33',
      phone_number: '6 12 34 56 78',
      bio_url: 'https://ada.example.org',
      locale: 'fr',
      is_partner_newsletter_active: 'on',
      is_campaign_alert_active: '0',
      cover_letter: 'Dear recruiter',
      captcha_token: 'tok',
      website: '',
      unknown_field: 'ignored',
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(checked, {
      campaignId: 12,
      email: 'Ada@Example.org',
      captchaToken: 'tok',
      utm: null,
      droppedUtm: [],
      payload: {
        applicant: {
          email: 'Ada@Example.org',
          first_name: 'Ada',
          last_name: 'Lovelace',
          phone_number: '6 12 34 56 78',
          phone_code: '+33',
          bio_url: 'https://ada.example.org',
          locale: 'fr',
          is_legals_accepted_by_manager: true,
          is_partner_newsletter_active: true,
          is_campaign_alert_active: false,
        },
        cover_letter: 'Dear recruiter',
      },
    });
  });

  it('takes a form without the optional fields, and without a captcha token', () => {
    const { errors, checked } = checkValid();
    assert.deepEqual(errors, []);
    assert.deepEqual(checked?.payload, {
      applicant: {
        email: 'ada@example.org',
        first_name: 'Ada',
        last_name: 'Lovelace',
        is_legals_accepted_by_manager: true,
        is_partner_newsletter_active: false,
        is_campaign_alert_active: false,
      },
    });
    assert.equal(checked?.captchaToken, undefined);
  });

  it('reads true, on and 1 as a ticked box and false, off, 0 and empty as not, in any case', () => {
    for (const ticked of ['true', 'ON', ' 1 ']) {
      assert.equal(
        checkValid({ is_campaign_alert_active: ticked }).checked?.payload.applicant.is_campaign_alert_active,
        true,
        ticked,
      );
    }
    for (const unticked of ['false', 'Off', '0', '']) {
      assert.equal(
        checkValid({ is_campaign_alert_active: unticked }).checked?.payload.applicant.is_campaign_alert_active,
        false,
        unticked,
      );
    }
    assert.deepEqual(codes({ ...VALID, is_campaign_alert_active: 'yes' }), [
      ['is_campaign_alert_active', 'invalid_value'],
    ]);
    assert.deepEqual(codes({ ...VALID, is_legals_accepted_by_manager: 'yes' }), [
      ['is_legals_accepted_by_manager', 'invalid_value'],
    ]);
    assert.deepEqual(codes({ ...VALID, is_legals_accepted_by_manager: 'off' }), [
      ['is_legals_accepted_by_manager', 'consent_required'],
    ]);
  });

  it('names each problem with its field and code, all at once', () => {
    assert.deepEqual(codes({ first_name: '  ' }), [
      ['campaign_id', 'required'],
      ['email', 'required'],
      ['first_name', 'required'],
      ['last_name', 'required'],
      ['is_legals_accepted_by_manager', 'consent_required'],
    ]);
  });

  it('takes a campaign id of 1 to 16 digits without a leading zero, within the safe integers', () => {
    assert.equal(checkValid({ campaign_id: '9007199254740991' }).checked?.campaignId, 9007199254740991);
    for (const id of ['0', '012', '12abc', 'x12', '1.5', '-3', '12345678901234567', '9007199254740993']) {
      assert.deepEqual(codes({ ...VALID, campaign_id: id }), [['campaign_id', 'invalid_value']], id);
    }
  });

  it('refuses values the contract refuses, each with its per-field code', () => {
    assert.deepEqual(codes({ ...VALID, email: 'not-an-address' }), [['email', 'invalid_email']]);
    assert.deepEqual(codes({ ...VALID, bio_url: 'javascript:alert(1)' }), [['bio_url', 'invalid_url']]);
    assert.deepEqual(codes({ ...VALID, last_name: 'x'.repeat(101) }), [['last_name', 'too_long']]);
    assert.deepEqual(codes({ ...VALID, phone_code: '+33', phone_number: 'call me' }), [
      ['phone_number', 'invalid_phone'],
    ]);
    assert.deepEqual(codes({ ...VALID, phone_code: '+33x', phone_number: '0612345678' }), [
      ['phone_code', 'invalid_phone'],
    ]);
    assert.deepEqual(codes({ ...VALID, locale: 'de' }), [['locale', 'invalid_value']]);
  });

  it('answers too_long for a field cut at the size limit, and no other problem of it', () => {
    assert.deepEqual(codes({ ...VALID, email: 'ada@example.org' }, modes(), ['email']), [['email', 'too_long']]);
    assert.deepEqual(codes({ ...VALID, first_name: 'Ada' }, modes(), ['first_name']), [['first_name', 'too_long']]);
  });

  it("refuses a NUL or another control character in a candidate's text, on its field; the cover letter keeps its tabs and line breaks", () => {
    assert.deepEqual(codes({ ...VALID, cover_letter: 'Dear team,\r\n\tI apply.\nAda' }), []);
    assert.deepEqual(codes({ ...VALID, cover_letter: 'Dear team\u0000' }), [['cover_letter', 'invalid_value']]);
    assert.deepEqual(codes({ ...VALID, cover_letter: 'Dear team\u0085 and \u007f' }), [
      ['cover_letter', 'invalid_value'],
    ]);
    assert.deepEqual(codes({ ...VALID, first_name: 'A\u0000da', last_name: 'Love\nlace' }), [
      ['first_name', 'invalid_value'],
      ['last_name', 'invalid_value'],
    ]);
    assert.deepEqual(codes({ ...VALID, bio_url: 'https://ada.example/\u0001' }), [['bio_url', 'invalid_url']]);
    assert.deepEqual(codes({ ...VALID, phone_code: '+33', phone_number: '06\t12 34 56 78' }), [
      ['phone_number', 'invalid_phone'],
    ]);
    const { errors } = checkValid({ cover_letter: 'Hello\u0000 there' });
    assert.equal(errors[0]?.message, 'Remove the invisible control characters (such as NUL) from this text.');
    assert.doesNotMatch(JSON.stringify(errors), /Hello/, 'the value is not echoed');
  });

  it('counts the cover letter in characters, at most 10,000', () => {
    assert.deepEqual(codes({ ...VALID, cover_letter: '😀'.repeat(10_000) }), []);
    assert.deepEqual(codes({ ...VALID, cover_letter: 'é'.repeat(10_001) }), [['cover_letter', 'too_long']]);
  });

  it('reads the consent and the cover letter under the form names the form table gives them', () => {
    const consent = postedName(fieldOf('consent'));
    const letter = postedName(fieldOf('cover_letter'));
    const unticked = Object.fromEntries(Object.entries(VALID).filter(([name]) => name !== consent));
    assert.deepEqual(codes(unticked), [[consent, 'consent_required']]);
    const { checked } = checkForm(parsed({ ...unticked, [consent]: 'true', [letter]: 'Dear team' }), modes());
    assert.equal(checked?.payload.applicant[consent as keyof typeof checked.payload.applicant], true);
    assert.equal(checked?.payload.cover_letter, 'Dear team');
    assert.deepEqual(codes({ ...VALID, [letter]: 'a'.repeat(fieldOf('cover_letter').maxlength + 1) }), [
      [letter, 'too_long'],
    ]);
  });

  describe('the phone', () => {
    it('needs the country calling code with a number', () => {
      assert.deepEqual(codes({ ...VALID, phone_number: '0612345678' }), [['phone_code', 'required']]);
    });

    it('takes a calling code alone when it is one, with or without its plus, and drops it', () => {
      const { errors, checked } = checkValid({ phone_code: '+33' });
      assert.deepEqual(errors, []);
      assert.equal(checked?.payload.applicant.phone_code, undefined);
      assert.deepEqual(codes({ ...VALID, phone_code: '33' }), []);
      assert.deepEqual(codes({ ...VALID, phone_code: '+33333' }), [['phone_code', 'invalid_phone']]);
    });

    it('when required, needs the number', () => {
      assert.deepEqual(codes({ ...VALID, phone_code: '+33' }, modes({ phone: 'required' })), [
        ['phone_number', 'required'],
      ]);
    });

    it('when hidden, is dropped, code and number', () => {
      const { errors, checked } = checkValid({ phone_code: 'x', phone_number: 'y' }, modes({ phone: 'hidden' }));
      assert.deepEqual(errors, []);
      assert.equal(checked?.payload.applicant.phone_code, undefined);
      assert.equal(checked?.payload.applicant.phone_number, undefined);
    });
  });

  describe('the field configuration (FORM_FIELDS)', () => {
    it('drops a hidden field, whatever it holds', () => {
      const hidden = modes({
        first_name: 'hidden',
        bio_url: 'hidden',
        cover_letter: 'hidden',
        is_partner_newsletter_active: 'hidden',
        consent: 'hidden',
      });
      const refusedIfShown = { first_name: 'x'.repeat(101), bio_url: 'not a url', cover_letter: 'Hello' };
      const { errors } = checkValid({ ...refusedIfShown, is_partner_newsletter_active: 'maybe' }, hidden);
      assert.deepEqual(
        errors,
        [['is_partner_newsletter_active', 'invalid_value']].map(([field, code]) => ({
          field,
          code,
          message: 'Send true when ticked.',
        })),
      );
      const kept = checkValid({ ...refusedIfShown, is_partner_newsletter_active: 'true' }, hidden).checked;
      assert.deepEqual(kept?.payload, {
        applicant: { email: 'ada@example.org', last_name: 'Lovelace', is_campaign_alert_active: false },
      });
    });

    it('needs a required field, a required opt-in ticked, and takes an optional consent unticked', () => {
      assert.deepEqual(
        codes({ ...VALID, is_campaign_alert_active: 'false' }, modes({ is_campaign_alert_active: 'required' })),
        [['is_campaign_alert_active', 'required']],
      );
      assert.deepEqual(codes({ ...VALID, cover_letter: ' ' }, modes({ cover_letter: 'required' })), [
        ['cover_letter', 'required'],
      ]);
      const { errors, checked } = checkValid(
        { is_legals_accepted_by_manager: 'false' },
        modes({ consent: 'optional' }),
      );
      assert.deepEqual(errors, []);
      assert.equal(checked?.payload.applicant.is_legals_accepted_by_manager, undefined);
    });
  });

  it('says what is wrong in English beside each code, and answers no form to store', () => {
    const { errors, checked } = checkValid({
      email: 'nope',
      campaign_id: 'x',
      locale: 'de',
      phone_number: '0612345678',
      is_legals_accepted_by_manager: 'maybe',
      cover_letter: 'a'.repeat(10_001),
    });
    assert.deepEqual(
      errors.map((e) => [e.field, e.message]),
      [
        ['campaign_id', 'Must be the id of a job offer.'],
        ['phone_code', 'Choose the country calling code of the number.'],
        ['locale', 'Must be one of fr, en, es.'],
        ['is_legals_accepted_by_manager', 'Send true when ticked.'],
        ['cover_letter', 'At most 10000 characters.'],
        ['email', 'Enter a valid email address.'],
      ],
    );
    assert.equal(checked, undefined);
  });
});

describe('checkForm: campaign parameters (TRACK_UTM)', () => {
  const tracked = (fields: Record<string, string>, truncated: string[] = []) =>
    checkForm(parsed({ ...VALID, ...fields }, truncated), modes(), true);

  it('keeps the utm_* posted, trimmed, blank ones left out', () => {
    const { errors, checked } = tracked({
      utm_source: ' newsletter ',
      utm_medium: 'email',
      utm_campaign: 'spring 2026 – café',
      utm_term: ' ',
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(checked?.utm, {
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring 2026 – café',
    });
    assert.equal(tracked({}).checked?.utm, null);
  });

  it('drops a value over 200 characters, or cut by the form limit, as too long, and keeps the others: the form is not refused', () => {
    assert.deepEqual(tracked({ utm_source: 'x'.repeat(200) }).checked?.utm, { utm_source: 'x'.repeat(200) });
    const { errors, checked } = tracked({ utm_source: 'x'.repeat(201), utm_content: 'ok' });
    assert.deepEqual(errors, []);
    assert.deepEqual(checked?.utm, { utm_content: 'ok' });
    assert.deepEqual(checked?.droppedUtm, [{ name: 'utm_source', fault: 'too_long' }]);
    const cut = tracked({ utm_term: 'x' }, ['utm_term']).checked;
    assert.deepEqual([cut?.utm, cut?.droppedUtm], [null, [{ name: 'utm_term', fault: 'too_long' }]]);
  });

  it("drops control characters, line breaks and invisible format characters as not printable; the other fields' problems still refuse the form", () => {
    for (const bad of ['a\u0000b', 'a\nb', 'tab\there', 'a\u007fb', 'a\u0085b', 'a\u202eb', 'a\u2028b']) {
      const { errors, checked } = tracked({ utm_medium: bad, utm_source: 'news' });
      assert.deepEqual(
        [errors, checked?.utm, checked?.droppedUtm],
        [[], { utm_source: 'news' }, [{ name: 'utm_medium', fault: 'not_printable' }]],
        JSON.stringify(bad),
      );
    }
    assert.deepEqual(
      tracked({ first_name: '', utm_campaign: 'a\u0007' }).errors.map((e) => [e.field, e.code]),
      [['first_name', 'required']],
    );
  });

  it('reads none of them when not tracked: no problem and nothing kept', () => {
    const { errors, checked } = checkValid({ utm_source: 'a\u0000'.repeat(300) }, modes(), false);
    assert.deepEqual(errors, []);
    assert.equal(checked?.utm, null);
  });
});

describe('fingerprintOf', () => {
  it('is the same for the same fields in any order, whatever the captcha token', () => {
    assert.equal(
      fingerprintOf(parsed({ a: '1', b: '2', captcha_token: 'x' })),
      fingerprintOf(parsed({ b: '2', a: '1', captcha_token: 'y' })),
    );
  });

  it('differs when a field name, a value or the resume bytes differ', () => {
    const base = fingerprintOf(parsed({ a: '1', b: '2' }, [], 'aa'));
    assert.notEqual(fingerprintOf(parsed({ a: '1', b: '3' }, [], 'aa')), base);
    assert.notEqual(fingerprintOf(parsed({ a: '1', c: '2' }, [], 'aa')), base);
    assert.notEqual(fingerprintOf(parsed({ a: '12' }, [], 'aa')), fingerprintOf(parsed({ a: '1', '2': '' }, [], 'aa')));
    assert.notEqual(fingerprintOf(parsed({ a: '1', b: '2' }, [], 'bb')), base);
    assert.notEqual(fingerprintOf(parsed({ a: '1', b: '2' })), base);
  });

  it("differs when the photos of the resume's pages differ, in bytes or in order; without pages it is what it always was", () => {
    const fields = { a: '1' };
    const base = fingerprintOf(parsed(fields, [], undefined, ['p1', 'p2']));
    assert.equal(fingerprintOf(parsed(fields, [], undefined, ['p1', 'p2'])), base);
    assert.notEqual(fingerprintOf(parsed(fields, [], undefined, ['p2', 'p1'])), base);
    assert.notEqual(fingerprintOf(parsed(fields, [], undefined, ['p1'])), base);
    assert.notEqual(fingerprintOf(parsed(fields, [], undefined, ['p1', 'p3'])), base);
    // A key claimed before pages existed still matches its retry.
    assert.equal(
      fingerprintOf(parsed(fields, [], 'aa')),
      createHash('sha256').update('a\u00001\u0000').update('resume\u0000').update('aa').digest('hex'),
    );
  });
});

describe('emailBucket', () => {
  it('is one bucket per address, whatever its case and spaces, holding no address', () => {
    const bucket = emailBucket('ada@example.org');
    assert.equal(emailBucket(' Ada@Example.ORG '), bucket);
    assert.notEqual(emailBucket('bob@example.org'), bucket);
    // The SHA-256 of the lowercase address: the counters of a day survive an upgrade.
    assert.equal(bucket, `email:${createHash('sha256').update('ada@example.org').digest('hex')}`);
  });
});
