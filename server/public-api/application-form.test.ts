// The form's table as the outside sees it: the names a board configures and
// posts, the widget attributes (public names of the elements), what the
// browser may autofill, what a session draft keeps, and the codes of refused
// values. The checks that use the table are tested in
// server/proxy/applications/form.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { JobboardApplicantInput } from '../contract/index.ts';
import {
  APPLICATION_FORM,
  CONFIGURABLE_FIELDS,
  DEFAULT_FIELD_MODES,
  EMAIL_PATTERN,
  FORM_FIELD_NAMES,
  invalidCodeOf,
  postedName,
  upstreamName,
} from './application-form.ts';
import type { FormField } from './application-form.ts';

describe('the application form table', () => {
  it('lets a board configure every field but the email, in display order, each with its default', () => {
    // Display order is the order of these keys.
    const defaults = {
      first_name: 'required',
      last_name: 'required',
      phone: 'optional',
      resume: 'required',
      cover_letter: 'optional',
      bio_url: 'optional',
      consent: 'required',
      is_partner_newsletter_active: 'optional',
      is_campaign_alert_active: 'optional',
    };
    assert.deepEqual(CONFIGURABLE_FIELDS, Object.keys(defaults));
    assert.deepEqual(DEFAULT_FIELD_MODES, defaults);
  });

  it('reads exactly these form names (the resume is a file), the widget setting the offer (or the company of a spontaneous application), the language, the honeypot, the captcha answer and the campaign parameters', () => {
    assert.deepEqual(FORM_FIELD_NAMES, [
      'campaign_id',
      'company_id',
      'locale',
      'website',
      'captcha_token',
      'email',
      'first_name',
      'last_name',
      'phone_code',
      'phone_number',
      'cover_letter',
      'bio_url',
      'is_legals_accepted_by_manager',
      'is_partner_newsletter_active',
      'is_campaign_alert_active',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'utm_term',
      'utm_content',
    ]);
  });

  it("names the widget's field-* attributes as its README documents them", () => {
    assert.deepEqual(
      APPLICATION_FORM.flatMap((f) => ('attribute' in f ? [f.attribute] : [])),
      [
        'field-first-name',
        'field-last-name',
        'field-phone',
        'field-resume',
        'field-cover-letter',
        'field-bio-url',
        'field-consent',
        'field-newsletter',
        'field-job-alert',
      ],
    );
  });

  it('gives each control its kind, its autofill token and its length limit', () => {
    assert.deepEqual(
      APPLICATION_FORM.map((f) => [
        f.id,
        f.kind,
        'autocomplete' in f ? f.autocomplete : undefined,
        'maxlength' in f ? f.maxlength : undefined,
      ]),
      [
        ['email', 'email', 'email', 254],
        ['first_name', 'text', 'given-name', 100],
        ['last_name', 'text', 'family-name', 100],
        ['phone_code', 'tel-code', 'tel-country-code', 5],
        ['phone_number', 'tel', 'tel-national', undefined],
        ['resume', 'file', undefined, undefined],
        ['cover_letter', 'textarea', undefined, 10_000],
        ['bio_url', 'url', 'url', 2048],
        ['consent', 'checkbox', undefined, undefined],
        ['is_partner_newsletter_active', 'checkbox', undefined, undefined],
        ['is_campaign_alert_active', 'checkbox', undefined, undefined],
      ],
    );
  });

  it("holds each text field to the contract's length limit and the email to its pattern, so the widget checks what the proxy will", () => {
    const shape = JobboardApplicantInput.shape;
    for (const name of ['email', 'first_name', 'last_name', 'bio_url'] as const) {
      const max = (APPLICATION_FORM as readonly FormField[]).find((f) => f.id === name)!.maxlength!;
      assert.equal(shape[name].safeParse('a'.repeat(max + 1)).success, false, name);
      if (name !== 'email' && name !== 'bio_url') assert.equal(shape[name].safeParse('a'.repeat(max)).success, true);
    }
    assert.equal(EMAIL_PATTERN.source, z.regexes.email.source);
    assert.equal(shape.email.safeParse('jane@example').success, EMAIL_PATTERN.test('jane@example'));
  });

  it('keeps typed text in the session draft, never a file or a consent', () => {
    assert.deepEqual(
      APPLICATION_FORM.filter((f) => 'draft' in f && f.draft).map((f) => f.id),
      ['email', 'first_name', 'last_name', 'phone_code', 'phone_number', 'cover_letter', 'bio_url'],
    );
  });

  it('remembers on the device, with the opt-in, the contact fields and links, never the cover letter, a consent or an opt-in', () => {
    assert.deepEqual(
      APPLICATION_FORM.filter((f) => 'remember' in f && f.remember).map((f) => f.id),
      ['email', 'first_name', 'last_name', 'phone_code', 'phone_number', 'bio_url'],
    );
  });

  it('posts the consent as is_legals_accepted_by_manager and sends the cover letter upstream as comments', () => {
    assert.deepEqual(
      APPLICATION_FORM.map((f) => [postedName(f), upstreamName(f)]).filter(
        ([posted, upstream]) => posted !== upstream || posted === 'is_legals_accepted_by_manager',
      ),
      [
        ['cover_letter', 'comments'],
        ['is_legals_accepted_by_manager', 'is_legals_accepted_by_manager'],
      ],
    );
  });

  it('answers the code of a refused value by the kind of its field, invalid_value for any other', () => {
    assert.deepEqual(
      [
        'email',
        'bio_url',
        'phone_code',
        'phone_number',
        'resume',
        'first_name',
        'is_legals_accepted_by_manager',
        'consent',
        'campaign_id',
      ].map(invalidCodeOf),
      [
        'invalid_email',
        'invalid_url',
        'invalid_phone',
        'invalid_phone',
        'unsupported_file_type',
        'invalid_value',
        'invalid_value',
        'invalid_value',
        'invalid_value',
      ],
    );
  });
});
