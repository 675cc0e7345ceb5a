// The apply form's controller in Node, apart from rendering: loading the
// form, the rules of its fields, the checks of what the candidate types and
// the session draft. The element is a stand-in (apply-element.test-support.ts)
// and the proxy a scripted HTTP server; the browser tests of the form
// (widget/src/apply/*.test.ts) check the same behaviour rendered in Chromium.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ApplyElement, Device, openForm, page, resume, until } from './apply-element.test-support.ts';
import { closeStandIns, defaultConfig, offerSummary, problem, standIn } from './proxy.test-support.ts';
import type { FieldName } from '../src/internal/api.ts';

const message = {
  required: 'This field is required.',
  consent: 'You must accept the processing of your data to apply.',
  email: 'Enter an email address like name@example.com.',
  url: 'Enter a web address starting with https://.',
  phone: 'Enter a country code like +33 and a phone number with digits only.',
  tooLong: 'This text is too long.',
  fileType: 'This file type is not accepted.',
};

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
    const given = await openForm(proxy.endpoint, { offer: offerSummary(101) });
    assert.equal(given.form.phase, 'form');
    assert.deepEqual(proxy.requests, ['GET /api/config']);
    const other = await openForm(proxy.endpoint, { offer: offerSummary(7) });
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

  for (const { behaviour, attributes, rules } of [
    {
      behaviour: 'keeps a field the proxy requires required, whatever the attribute says',
      attributes: { 'field-first-name': 'optional', 'field-resume': 'hidden' },
      rules: { first_name: 'required', resume: 'required' },
    },
    {
      behaviour: "ignores an attribute value that is not a rule: the proxy's rule stands",
      attributes: { 'field-bio-url': 'yes', 'field-cover-letter': 'Required' },
      rules: { bio_url: 'optional', cover_letter: 'optional' },
    },
  ]) {
    it(behaviour, async () => {
      const el = await openForm((await standIn()).endpoint);
      for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
      const fields = Object.keys(rules) as FieldName[];
      assert.deepEqual(Object.fromEntries(fields.map((field) => [field, el.form.rule(field)])), rules);
    });
  }

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
    el.typeAndLeave('first_name', '');
    assert.deepEqual(el.form.errors, {});
    el.leave('email');
    assert.deepEqual(el.form.errors, { email: message.email });
  });

  it('updates a shown error as the candidate types, and removes it once the value is right', async () => {
    const el = await openForm((await standIn()).endpoint);
    el.typeAndLeave('bio_url', 'ftp://files.example/cv');
    el.typeAndLeave('email', 'ada@');
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
      el.typeAndLeave('bio_url', value);
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
    el.typeAndLeave('phone_code', '33');
    el.typeAndLeave('phone_number', '12');
    assert.deepEqual(el.form.errors, { phone_code: message.phone, phone_number: message.phone });
    el.type('phone_code', '+33');
    el.type('phone_number', '06 12 34 56 78');
    assert.deepEqual(el.form.errors, {});
  });

  it('refuses a cover letter over its length', async () => {
    const el = await openForm((await standIn()).endpoint);
    el.typeAndLeave('cover_letter', 'a'.repeat(10_001));
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

  it('says a refused resume in the live region as it is chosen, and empties it when a file is taken', async () => {
    const config = { ...defaultConfig, resume: { types: ['pdf'], max_bytes: 2048 } };
    const el = await openForm((await standIn({ config: config as typeof defaultConfig })).endpoint);
    // Each choice rendered before the next, as a candidate's are.
    for (const file of [
      resume('cv.pdf', 2049),
      resume('cv.pdf'),
      resume('cv.png'),
      resume('cv.pdf'),
      resume('cv.png'),
    ]) {
      el.choose('resume', file);
      await el.updateComplete;
    }
    assert.deepEqual(el.announced, ['The file is larger than 2\u00a0KB.', '', message.fileType, '', message.fileType]);
    // A field other than the resume leaves the region as it is.
    el.type('first_name', 'Ada');
    await el.updateComplete;
    assert.equal(el.form.announcement, message.fileType);
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
    el.typeAndLeave('website', 'robot');
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

describe("the draft's resume", { timeout: 5000 }, () => {
  it('is kept when chosen and chosen again after a reload, in a form of the same offer on the same proxy', async () => {
    const proxy = await standIn({ offers: [101, 102] });
    const device = new Device();
    const first = await openForm(proxy.endpoint, { device });
    const file = resume('cv.pdf');
    first.choose('resume', file);
    await until(() => device.drafts.size === 1, 'the resume is kept');
    assert.deepEqual([...device.drafts], [[`${proxy.endpoint} 101`, file]]);
    const reloaded = await openForm(proxy.endpoint, { device });
    assert.equal(reloaded.form.resume, file);
    assert.equal((await openForm(proxy.endpoint, { device, campaignId: 102 })).form.resume, null);
  });

  it('goes when the candidate clears their choice', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    el.choose('resume', resume());
    el.choose('resume', null);
    await until(() => el.device.drafts.size === 0, 'the resume is let go');
  });

  it('is sent, though no file input holds it, and survives a failed send, then goes with the success', async () => {
    const proxy = await standIn({ answers: [problem(503, 'not_ready')] });
    const device = new Device();
    const first = await openForm(proxy.endpoint, { device });
    first.fillRequired();
    first.choose('resume', resume('cv.pdf', 900));
    await first.form.submit();
    assert.equal(first.form.phase, 'form');
    const reloaded = await openForm(proxy.endpoint, { device });
    reloaded.tick('consent');
    await reloaded.form.submit();
    assert.equal(reloaded.form.phase, 'success');
    assert.deepEqual(proxy.applications[1]!.files, {
      resume: { name: 'cv.pdf', size: 900, type: 'application/pdf' },
    });
    await until(() => device.empty(), 'the draft is cleared');
  });

  it('goes when the candidate applied already', async () => {
    const proxy = await standIn({ answers: [problem(409, 'already_applied')] });
    const el = await openForm(proxy.endpoint);
    el.fillRequired();
    await el.form.submit();
    assert.equal(el.form.phase, 'already-applied');
    await until(() => el.device.empty(), 'the draft is cleared');
  });

  it('is neither kept nor read with no-draft', async () => {
    const proxy = await standIn();
    const device = new Device();
    device.drafts.set(`${proxy.endpoint} 101`, resume('old.pdf'));
    const el = await openForm(proxy.endpoint, { device, noDraft: true });
    assert.equal(el.form.resume, null);
    el.fillRequired();
    await el.form.submit();
    await el.device.store();
    assert.deepEqual([...device.drafts.keys()], [`${proxy.endpoint} 101`]);
  });
});

describe('quick apply (the details kept on this device)', { timeout: 5000 }, () => {
  const ada = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', phone_code: '+44' };

  it('keeps nothing without the opt-in, which is off by default', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    assert.equal(el.form.remember, false);
    assert.equal(el.control('remember').checked, false);
    el.fillRequired();
    await el.form.submit();
    assert.equal(el.form.phase, 'success');
    await until(() => el.device.drafts.size === 0, 'the draft is cleared');
    assert.equal(el.device.profile, null);
    assert.equal(el.form.profile, null);
  });

  it('with the opt-in, keeps the contact fields, links and resume sent, never the cover letter or an answer to the offer', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    el.fillRequired();
    el.type('bio_url', 'https://ada.example');
    el.type('cover_letter', 'Dear Acme');
    el.tick('is_campaign_alert_active');
    el.tick('remember');
    assert.equal(el.form.remember, true);
    await el.form.submit();
    assert.equal('remember' in proxy.applications[0]!.fields, false);
    await until(() => el.device.profile !== null, 'the details are kept');
    const { values, resume: kept, saved } = el.device.profile!;
    assert.deepEqual(values, { ...ada, bio_url: 'https://ada.example' });
    assert.equal(kept?.name, 'resume.pdf');
    assert.ok(Date.now() - saved < 1000);
    assert.deepEqual(el.form.profile?.values, values);
  });

  it("fills the next offer's form with the kept details and resume, ticked, folded until Edit, which shows and focuses them", async () => {
    const proxy = await standIn({ offers: [101, 102] });
    const device = new Device();
    const file = resume('cv.pdf');
    device.profile = { values: ada, resume: file, saved: Date.now() };
    const el = await openForm(proxy.endpoint, { device, campaignId: 102 });
    assert.deepEqual(el.form.values, ada);
    assert.equal(el.control('email').value, 'ada@example.com');
    assert.equal(el.form.resume, file);
    assert.deepEqual([el.form.remember, el.control('remember').checked, el.form.editing], [true, true, false]);
    el.form.edit();
    assert.equal(el.form.editing, true);
    await el.updateComplete;
    assert.equal(el.focused, 'email');
  });

  it('sends the kept details and resume with a tick of the consent', async () => {
    const proxy = await standIn();
    const device = new Device();
    device.profile = { values: ada, resume: resume('cv.pdf', 700), saved: Date.now() };
    const el = await openForm(proxy.endpoint, { device });
    el.tick('consent');
    await el.form.submit();
    assert.equal(el.form.phase, 'success');
    const { fields, files } = proxy.applications[0]!;
    assert.deepEqual([fields.email, fields.first_name, files.resume?.name], ['ada@example.com', 'Ada', 'cv.pdf']);
  });

  it('prefers what the draft holds to the kept details', async () => {
    const proxy = await standIn();
    const device = new Device();
    const first = await openForm(proxy.endpoint, { device });
    first.type('email', 'grace@example.com');
    const chosen = resume('chosen.pdf');
    first.choose('resume', chosen);
    device.profile = { values: ada, resume: resume('cv.pdf'), saved: Date.now() };
    const again = await openForm(proxy.endpoint, { device });
    assert.deepEqual(
      [again.form.values.email, again.form.values.first_name, again.form.resume],
      ['grace@example.com', 'Ada', chosen],
    );
  });

  it('refreshes the kept details at each application sent with the box ticked', async () => {
    const proxy = await standIn();
    const device = new Device();
    device.profile = { values: ada, resume: null, saved: 0 };
    const el = await openForm(proxy.endpoint, { device });
    el.type('first_name', 'Augusta');
    el.tick('consent');
    el.choose('resume', resume('new.pdf'));
    await el.form.submit();
    await until(() => device.profile!.saved > 0, 'the details are kept again');
    assert.equal(device.profile!.values.first_name, 'Augusta');
    assert.equal(device.profile!.resume?.name, 'new.pdf');
  });

  it('forgets the kept details when the candidate sends with the box unticked', async () => {
    const proxy = await standIn();
    const device = new Device();
    device.profile = { values: ada, resume: null, saved: Date.now() };
    const el = await openForm(proxy.endpoint, { device });
    el.tick('remember', false);
    assert.equal(el.form.remember, false);
    el.tick('consent');
    el.choose('resume', resume());
    await el.form.submit();
    await until(() => device.profile === null, 'the details are forgotten');
    assert.equal(el.form.profile, null);
  });

  it('unfolds the kept details when the form has a problem', async () => {
    const proxy = await standIn();
    const device = new Device();
    device.profile = { values: ada, resume: resume(), saved: Date.now() };
    const el = await openForm(proxy.endpoint, { device });
    await el.form.submit();
    assert.deepEqual(el.form.summary, ['consent']);
    assert.equal(el.form.editing, true);
  });

  it("Forget erases the kept details, every offer's draft and its resume, and empties the form", async () => {
    const proxy = await standIn({ offers: [101, 102] });
    const device = new Device();
    device.profile = { values: ada, resume: resume(), saved: Date.now() };
    const other = await openForm(proxy.endpoint, { device, campaignId: 102 });
    other.type('cover_letter', 'Dear Acme');
    other.choose('resume', resume());
    const el = await openForm(proxy.endpoint, { device, language: { locale: 'fr', tag: 'fr' } });
    el.type('cover_letter', 'Madame, Monsieur');
    el.tick('consent');
    el.choose('resume', resume());
    await el.form.forget();
    assert.ok(device.empty());
    assert.equal(sessionStorage.length, 0);
    assert.deepEqual(
      [el.form.profile, el.form.remember, el.form.editing, el.form.resume, el.form.values],
      [null, false, false, null, { phone_code: '+33' }],
    );
    assert.deepEqual(
      [el.control('cover_letter').value, el.control('phone_code').value, el.control('consent').checked],
      ['', '+33', false],
    );
    assert.deepEqual([el.control('resume').files, el.control('remember').checked], [[], false]);
    assert.deepEqual(el.announced.slice(-1), ['What this form kept on this device is erased.']);
    assert.equal(el.focused, 'email');
  });

  it('reads and shows nothing kept with no-quick-apply', async () => {
    const proxy = await standIn();
    const device = new Device();
    device.profile = { values: ada, resume: resume(), saved: Date.now() };
    const el = await openForm(proxy.endpoint, { device, noQuickApply: true });
    assert.deepEqual([el.form.profile, el.form.remember, el.form.values], [null, false, { phone_code: '+44' }]);
    assert.equal(el.shown().includes('remember'), false);
  });

  it('fills the form with the kept details under no-draft, and the draft resume under no-quick-apply', async () => {
    const proxy = await standIn();
    const device = new Device();
    device.profile = { values: ada, resume: null, saved: Date.now() };
    const file = resume('draft.pdf');
    device.drafts.set(`${proxy.endpoint} 101`, file);
    const noDraft = await openForm(proxy.endpoint, { device, noDraft: true });
    assert.deepEqual([noDraft.form.values, noDraft.form.resume], [ada, null]);
    const noQuickApply = await openForm(proxy.endpoint, { device, noQuickApply: true });
    assert.deepEqual([noQuickApply.form.profile, noQuickApply.form.resume], [null, file]);
  });

  it('loads no store with no-quick-apply and no-draft', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint, { noQuickApply: true, noDraft: true });
    el.fillRequired();
    await el.form.submit();
    assert.equal(el.form.phase, 'success');
    assert.equal(el.device.loads, 0);
  });

  it('shows the form, keeping nothing, when the store cannot be loaded', async () => {
    const proxy = await standIn();
    const device = new Device();
    device.broken = true;
    const el = await openForm(proxy.endpoint, { device });
    assert.deepEqual([el.form.phase, el.form.kit, el.form.values], ['form', null, { phone_code: '+44' }]);
    el.fillRequired();
    await el.form.submit();
    assert.equal(el.form.phase, 'success');
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
