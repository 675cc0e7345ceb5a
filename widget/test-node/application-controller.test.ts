// The apply form's controller in Node, apart from rendering: loading the
// form, the rules of its fields, the checks of what the candidate types and
// the session draft. The element is a stand-in (apply-element.test-support.ts)
// and the proxy a scripted HTTP server; the browser tests of the form
// (widget/src/apply/*.test.ts) check the same behaviour rendered in Chromium.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ApplyElement, openForm, page, resume, until } from './apply-element.test-support.ts';
import { closeStandIns, defaultConfig, standIn } from './proxy.test-support.ts';
import type { CampaignSummary, FieldName } from '../src/internal/api.ts';

const message = {
  required: 'This field is required.',
  consent: 'You must accept the processing of your data to apply.',
  email: 'Enter an email address like name@example.com.',
  url: 'Enter a web address starting with https://.',
  phone: 'Enter a country code like +33 and a phone number with digits only.',
  tooLong: 'This text is too long.',
  fileType: 'This file type is not accepted.',
};

/** An offer as `<jobboard-campaigns>` gives its open one to the form. */
function offer(id: number): CampaignSummary {
  return {
    id,
    company_id: 1,
    company_name: 'Acme',
    name: 'Backend developer',
    job_type: 'Permanent contract',
    working_time: 'Full time',
    city: 'Lyon',
    country: 'France',
    salary_min: null,
    salary_max: null,
    job_start_date: null,
    contract_duration: null,
    updated_at: '2026-11-20T10:00:00.000Z',
  };
}

afterEach(async () => {
  await closeStandIns();
  sessionStorage.clear();
});

describe('the apply controller loading the form', { timeout: 5000 }, () => {
  it('starts loading, with nothing typed, no error, no banner and a silent live region', () => {
    const { form } = new ApplyElement('http://127.0.0.1:9');
    assert.equal(form.phase, 'loading');
    assert.deepEqual(
      [form.values, form.errors, form.summary, form.banner, form.outcome, form.receipt, form.announcement],
      [{}, {}, [], null, null, null, ''],
    );
    assert.equal(form.captchaToken, '');
  });

  it("shows the form once the proxy's config and the offer answered, the phone code of the language filled in", async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    assert.equal(el.form.phase, 'form');
    assert.deepEqual(el.form.config, defaultConfig);
    assert.deepEqual(el.form.values, { phone_code: '+44' });
    assert.equal(el.control('phone_code').value, '+44');
    assert.deepEqual(proxy.requests.toSorted(), ['GET /api/campaigns/101', 'GET /api/config']);
  });

  it('fills in +33 in French and +34 in Spanish', async () => {
    const proxy = await standIn();
    const fr = await openForm(proxy.endpoint, { language: { locale: 'fr', tag: 'fr-FR' } });
    const es = await openForm(proxy.endpoint, { language: { locale: 'es', tag: 'es' } });
    assert.deepEqual([fr.form.values.phone_code, es.form.values.phone_code], ['+33', '+34']);
  });

  it('shows no form for an offer that is closed or unknown', async () => {
    const proxy = await standIn({ offers: [] });
    const el = await openForm(proxy.endpoint);
    assert.equal(el.form.phase, 'gone');
    assert.deepEqual(el.shown(), []);
  });

  it('does not ask again for the offer the page gave, and asks for another one', async () => {
    const proxy = await standIn({ offers: [] });
    const given = await openForm(proxy.endpoint, { offer: offer(101) });
    assert.equal(given.form.phase, 'form');
    assert.deepEqual(proxy.requests, ['GET /api/config']);
    const other = await openForm(proxy.endpoint, { offer: offer(7) });
    assert.equal(other.form.phase, 'gone');
    assert.deepEqual(proxy.requests, ['GET /api/config', 'GET /api/campaigns/101']);
  });

  it('asks for no offer when none is chosen', async () => {
    const proxy = await standIn({ offers: [] });
    const el = await openForm(proxy.endpoint, { campaignId: 0 });
    assert.equal(el.form.phase, 'form');
    assert.deepEqual(proxy.requests, ['GET /api/config']);
  });

  it('shows the error phase when the proxy cannot give its config, and the form once reloaded when it can', async () => {
    const proxy = await standIn({ config: { status: 503, code: 'not_ready' } });
    const el = await openForm(proxy.endpoint);
    assert.equal(el.form.phase, 'error');
    assert.equal(el.form.config, null);
    proxy.config = defaultConfig;
    el.form.reload();
    assert.equal(el.form.phase, 'loading');
    await until(() => el.form.phase === 'form', 'the form shows');
    assert.deepEqual(el.form.config, defaultConfig);
  });

  it("shows the refused phase when the proxy does not allow the page's origin", async () => {
    const proxy = await standIn({ config: { status: 403, code: 'origin_not_allowed' } });
    const original = console.error;
    console.error = () => {};
    try {
      const el = await openForm(proxy.endpoint);
      assert.equal(el.form.phase, 'refused');
    } finally {
      console.error = original;
    }
  });

  it('keeps what the candidate typed when a load that a newer one replaced ends', async () => {
    const slow = await standIn({ configDelay: 150 });
    const quick = await standIn();
    const el = new ApplyElement(slow.endpoint);
    const replaced = el.form.load();
    el.endpoint = quick.endpoint;
    await el.form.load();
    await el.updateComplete;
    el.type('email', 'ada@example.com');
    await replaced;
    await el.updateComplete;
    assert.equal(el.form.phase, 'form');
    assert.equal(el.form.values.email, 'ada@example.com');
    assert.equal(el.control('email').value, 'ada@example.com');
  });
});

describe('the rules of the fields', { timeout: 5000 }, () => {
  it('makes the email required, even before the config is known', () => {
    const { form } = new ApplyElement('http://127.0.0.1:9');
    assert.equal(form.rule('email'), 'required');
  });

  it('takes a field the config does not name yet as optional', () => {
    const { form } = new ApplyElement('http://127.0.0.1:9');
    assert.equal(form.rule('first_name'), 'optional');
    assert.equal(form.resumeLimit(), undefined);
  });

  it("follows the proxy's config, then the board's field-* attribute", async () => {
    const proxy = await standIn({
      config: { ...defaultConfig, fields: { ...defaultConfig.fields, cover_letter: 'hidden' } },
    });
    const el = await openForm(proxy.endpoint);
    const fields: FieldName[] = ['first_name', 'phone', 'resume', 'cover_letter', 'bio_url', 'consent'];
    assert.deepEqual(
      fields.map((f) => el.form.rule(f)),
      ['required', 'optional', 'required', 'hidden', 'optional', 'required'],
    );
    el.setAttribute('field-bio-url', 'required');
    el.setAttribute('field-phone', 'hidden');
    el.setAttribute('field-cover-letter', 'optional');
    await el.updateComplete;
    assert.deepEqual(
      [el.form.rule('bio_url'), el.form.rule('phone'), el.form.rule('cover_letter')],
      ['required', 'hidden', 'optional'],
    );
    assert.equal(el.control('bio_url').required, true);
    assert.equal(el.control('cover_letter').required, false);
    assert.ok(!el.shown().includes('phone_code') && !el.shown().includes('phone_number'));
  });

  it('keeps a field the proxy requires required, whatever the attribute says', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    el.setAttribute('field-first-name', 'optional');
    el.setAttribute('field-resume', 'hidden');
    assert.deepEqual([el.form.rule('first_name'), el.form.rule('resume')], ['required', 'required']);
  });

  it("ignores an attribute value that is not a rule: the proxy's rule stands", async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    el.setAttribute('field-bio-url', 'yes');
    el.setAttribute('field-cover-letter', 'Required');
    assert.deepEqual([el.form.rule('bio_url'), el.form.rule('cover_letter')], ['optional', 'optional']);
  });

  it('writes the resume limit in the language of the element', async () => {
    const config = { ...defaultConfig, resume: { ...defaultConfig.resume, max_bytes: 1.5 * 1024 * 1024 } };
    const proxy = await standIn({ config });
    const en = await openForm(proxy.endpoint);
    const fr = await openForm(proxy.endpoint, { language: { locale: 'fr', tag: 'fr-FR' } });
    assert.deepEqual([en.form.resumeLimit(), fr.form.resumeLimit()], ['1.5\u00a0MB', '1,5\u00a0MB']);
  });
});

describe("the checks of the candidate's fields", { timeout: 5000 }, () => {
  it('judges a field once the candidate leaves it with a value, not while typing nor when left empty', async () => {
    const el = await openForm((await standIn()).endpoint);
    el.type('email', 'ada@');
    assert.deepEqual(el.form.errors, {});
    el.type('first_name', '');
    el.leave('first_name');
    assert.deepEqual(el.form.errors, {});
    el.leave('email');
    assert.deepEqual(el.form.errors, { email: message.email });
  });

  it('updates a shown error as the candidate types, and removes it once the value is right', async () => {
    const el = await openForm((await standIn()).endpoint);
    el.type('bio_url', 'ftp://files.example/cv');
    el.leave('bio_url');
    el.type('email', 'ada@');
    el.leave('email');
    el.type('email', 'ada@exa mple');
    assert.deepEqual(el.form.errors, { bio_url: message.url, email: message.email });
    el.type('email', '');
    assert.deepEqual(el.form.errors, { bio_url: message.url, email: message.required });
    el.type('email', 'ada@example.com');
    assert.deepEqual(el.form.errors, { bio_url: message.url });
  });

  it('takes only http(s) addresses for the portfolio, in any case', async () => {
    const el = await openForm((await standIn()).endpoint);
    const verdict = (value: string) => {
      el.type('bio_url', value);
      el.leave('bio_url');
      return el.form.errors.bio_url ?? null;
    };
    assert.deepEqual(['https://ada.example', 'http://ada.example/cv', 'HTTPS://ADA.EXAMPLE'].map(verdict), [
      null,
      null,
      null,
    ]);
    assert.deepEqual(
      ['ftp://files.example/cv', 'ftp://files.example/https://ada.example', 'ada dot example', 'mailto:https://x'].map(
        verdict,
      ),
      [message.url, message.url, message.url, message.url],
    );
  });

  it("checks the phone's code and number against their patterns", async () => {
    const el = await openForm((await standIn()).endpoint);
    el.type('phone_code', '33');
    el.leave('phone_code');
    el.type('phone_number', '12');
    el.leave('phone_number');
    assert.deepEqual(el.form.errors, { phone_code: message.phone, phone_number: message.phone });
    el.type('phone_code', '+33');
    el.type('phone_number', '06 12 34 56 78');
    assert.deepEqual(el.form.errors, {});
  });

  it('refuses a cover letter over its length', async () => {
    const el = await openForm((await standIn()).endpoint);
    el.type('cover_letter', 'a'.repeat(10_001));
    el.leave('cover_letter');
    assert.deepEqual(el.form.errors, { cover_letter: message.tooLong });
  });

  it('says when the consent box is unticked at once, with its own message', async () => {
    const el = await openForm((await standIn()).endpoint);
    el.tick('consent');
    assert.deepEqual(el.form.errors, {});
    el.tick('consent', false);
    assert.deepEqual(el.form.errors, { consent: message.consent });
    el.tick('is_partner_newsletter_active', false);
    assert.deepEqual(el.form.errors, { consent: message.consent });
  });

  it("judges a resume when it is chosen: the proxy's types in any case, jpeg as jpg, up to its size", async () => {
    const config = { ...defaultConfig, resume: { types: ['pdf', 'jpg'], max_bytes: 2048 } };
    const el = await openForm((await standIn({ config: config as typeof defaultConfig })).endpoint);
    const verdict = (file: File | null) => {
      el.choose('resume', file);
      return el.form.errors.resume ?? null;
    };
    assert.deepEqual(
      [resume('cv.pdf'), resume('CV.PDF'), resume('photo.jpeg'), resume('photo.JPG'), resume('cv.pdf', 2048)].map(
        verdict,
      ),
      [null, null, null, null, null],
    );
    assert.deepEqual(
      [resume('cv.png'), resume('cv'), resume('cv.pdf.exe'), resume('cv.pdf', 2049), null].map(verdict),
      [message.fileType, message.fileType, message.fileType, 'The file is larger than 2\u00a0KB.', message.required],
    );
    const chosen = () => el.form.resume;
    assert.equal(chosen(), null);
    el.choose('resume', resume('cv.pdf'));
    assert.equal(chosen()?.name, 'cv.pdf');
  });

  it('needs no resume where the proxy makes it optional', async () => {
    const config = { ...defaultConfig, fields: { ...defaultConfig.fields, resume: 'optional' as const } };
    const el = await openForm((await standIn({ config })).endpoint);
    el.choose('resume', resume());
    el.choose('resume', null);
    assert.deepEqual(el.form.errors, {});
  });

  it('gives no error for a control the form does not show, nor for one without an id, nor for the honeypot', async () => {
    const el = await openForm((await standIn()).endpoint);
    el.setAttribute('field-bio-url', 'hidden');
    await el.updateComplete;
    assert.equal(el.form.check('bio_url'), null);
    const unnamed = { id: '', value: 'x', type: 'text' };
    el.form.leave({ target: unnamed } as unknown as FocusEvent);
    el.form.input({ target: unnamed } as unknown as Event);
    el.type('website', 'robot');
    el.leave('website');
    assert.deepEqual(el.form.errors, {});
    assert.equal(el.form.check('website'), null);
  });
});

describe('the session draft', { timeout: 5000 }, () => {
  it('brings back what the candidate typed in a form of the same offer on the same proxy, files and boxes aside', async () => {
    const proxy = await standIn({ offers: [101, 102] });
    const first = await openForm(proxy.endpoint);
    first.type('email', 'ada@example.com');
    first.type('phone_code', '+33');
    first.tick('consent');
    first.choose('resume', resume());
    const again = await openForm(proxy.endpoint);
    assert.deepEqual(again.form.values, { email: 'ada@example.com', phone_code: '+33' });
    assert.equal(again.control('email').value, 'ada@example.com');
    const otherOffer = await openForm(proxy.endpoint, { campaignId: 102 });
    assert.deepEqual(otherOffer.form.values, { phone_code: '+44' });
  });

  it('keeps no draft with no-draft, and restores none', async () => {
    const proxy = await standIn();
    const kept = await openForm(proxy.endpoint);
    kept.type('email', 'kept@example.com');
    const none = await openForm(proxy.endpoint, { noDraft: true });
    assert.deepEqual({ ...none.form.values }, { phone_code: '+44' });
    none.type('email', 'none@example.com');
    assert.equal(none.form.values.email, 'none@example.com');
    const again = await openForm(proxy.endpoint);
    assert.equal(again.form.values.email, 'kept@example.com');
  });
});

describe('the apply controller with photos of the resume pages', { timeout: 5000 }, () => {
  it('takes the pages in the place of a resume file chosen, and needs no file then', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    el.choose('resume', resume());
    const pages = [page('p1.jpg'), page('p2.jpg')];
    el.form.setPages(pages);
    assert.deepEqual([el.form.pages, el.form.resume], [pages, null]);
    assert.deepEqual(el.form.errors, {});
    await el.form.submit();
    assert.equal(el.form.errors.resume, undefined);
  });

  it('asks for the resume again once the last page is removed, where the proxy requires one, and keeps a file chosen', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    el.form.setPages([page()]);
    el.form.setPages([]);
    assert.equal(el.form.errors.resume, message.required);
    const chosen = resume();
    el.choose('resume', chosen);
    el.form.setPages([]);
    assert.deepEqual(
      [el.form.resume, el.control('resume').files, el.form.errors.resume],
      [chosen, [chosen], undefined],
    );
    const config = { ...defaultConfig, fields: { ...defaultConfig.fields, resume: 'optional' as const } };
    const optional = await openForm((await standIn({ config })).endpoint);
    optional.form.setPages([]);
    assert.equal(optional.form.errors.resume, undefined);
  });

  it('says on resume_pages what went wrong with the photos just chosen, until the next choice', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    el.form.setPages([page()], 'A photo could not be read.');
    assert.equal(el.form.errors.resume_pages, 'A photo could not be read.');
    el.form.setPages([page(), page()]);
    assert.equal(el.form.errors.resume_pages, undefined);
  });

  it('drops the pages for a resume file chosen, and keeps them when the choice is emptied', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    const pages = [page()];
    el.form.setPages(pages);
    el.choose('resume', null);
    assert.deepEqual(el.form.pages, pages);
    el.choose('resume', resume());
    assert.deepEqual(el.form.pages, []);
  });
});
