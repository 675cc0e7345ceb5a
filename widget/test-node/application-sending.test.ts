// The apply form's controller in Node, sending: what it posts, the
// idempotency key, the upload's progress, the outcome and each failure, with
// the element a stand-in (apply-element.test-support.ts) and the proxy a
// scripted HTTP server receiving real uploads.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ApplyElement, openForm, page, resume, until } from './apply-element.test-support.ts';
import { NodeXMLHttpRequest, PAGE_URL } from './browser.test-support.ts';
import { closeStandIns, defaultConfig, delivered, problem, standIn } from './proxy.test-support.ts';
import type { Answer, StandInOptions } from './proxy.test-support.ts';
import { receiptLink } from '../src/apply/application-controller.ts';

const steps = NodeXMLHttpRequest.uploadSteps;

afterEach(async () => {
  await closeStandIns();
  sessionStorage.clear();
  NodeXMLHttpRequest.uploadSteps = steps;
});

/** A form loaded from a stand-in answering `answers`, its required fields filled in. */
async function filled(options: StandInOptions = {}) {
  const proxy = await standIn(options);
  const el = await openForm(proxy.endpoint);
  el.fillRequired();
  return { proxy, el };
}

/** Waits for the end of an upload that a call did not await (retry, cancel). */
async function settled(el: ApplyElement): Promise<void> {
  await until(() => el.form.phase !== 'uploading', 'the upload ends');
  await el.updateComplete;
}

const keys = (applications: { idempotencyKey: string | null }[]) => applications.map((a) => a.idempotencyKey);

describe('what the apply controller sends', { timeout: 5000 }, () => {
  it('posts the fields typed, the offer, the language, the consent under its posted name and the empty honeypot', async () => {
    const { proxy, el } = await filled();
    await el.form.submit();
    assert.equal(proxy.applications.length, 1);
    assert.deepEqual(proxy.applications[0]!.fields, {
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      website: '',
      campaign_id: '101',
      locale: 'en',
      is_legals_accepted_by_manager: 'true',
    });
    assert.deepEqual(proxy.applications[0]!.files, {
      resume: { name: 'resume.pdf', size: 600, type: 'application/pdf' },
    });
  });

  it('posts the ticked opt-ins, the phone code with a number, the language of the element and a robot in the honeypot', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint, { language: { locale: 'fr', tag: 'fr-CA' } });
    el.fillRequired();
    el.type('phone_number', '06 12 34 56 78');
    el.tick('is_partner_newsletter_active');
    el.type('website', 'robot');
    await el.form.submit();
    const { fields } = proxy.applications[0]!;
    assert.deepEqual(
      [fields.phone_code, fields.phone_number, fields.is_partner_newsletter_active, fields.locale, fields.website],
      ['+33', '06 12 34 56 78', 'true', 'fr', 'robot'],
    );
    assert.equal('is_campaign_alert_active' in fields || 'consent' in fields, false);
  });

  it('sends no resume when the candidate chose none for an optional one', async () => {
    const config = { ...defaultConfig, fields: { ...defaultConfig.fields, resume: 'optional' as const } };
    const { proxy, el } = await filled({ config });
    el.choose('resume', null);
    await el.form.submit();
    assert.deepEqual(proxy.applications[0]!.files, {});
    assert.equal('resume' in proxy.applications[0]!.fields, false);
  });

  it("posts the captcha's answer when the proxy asks for one, and no token before it answered", async () => {
    const config = { ...defaultConfig, captcha: { provider: 'turnstile' as const, site_key: 'site' } };
    const { proxy, el } = await filled({ config, answers: ['drop'] });
    await el.form.submit();
    assert.equal('captcha_token' in proxy.applications[0]!.fields, false);
    el.form.captchaToken = 'token-1';
    el.form.retry();
    await settled(el);
    assert.equal(proxy.applications[1]!.fields.captcha_token, 'token-1');
  });

  it("posts the landing page's utm_* when the proxy tracks them, and forgets them when it does not", async () => {
    sessionStorage.setItem('jobboard-utm', JSON.stringify({ utm_source: 'newsletter' }));
    const tracking = await filled();
    await tracking.el.form.submit();
    assert.equal(tracking.proxy.applications[0]!.fields.utm_source, 'newsletter');
    const quiet = await filled({ config: { ...defaultConfig, track_utm: false } });
    await quiet.el.form.submit();
    assert.equal('utm_source' in quiet.proxy.applications[0]!.fields, false);
    assert.equal(sessionStorage.getItem('jobboard-utm'), null);
  });
});

describe('submitting the form', { timeout: 5000 }, () => {
  it('sends nothing while a field is wrong: lists the errors in form order and focuses the summary', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    el.type('bio_url', 'ftp://files.example');
    await el.form.submit();
    assert.deepEqual(el.form.errors, {
      email: 'This field is required.',
      first_name: 'This field is required.',
      last_name: 'This field is required.',
      resume: 'This field is required.',
      bio_url: 'Enter a web address starting with https://.',
      consent: 'You must accept the processing of your data to apply.',
    });
    assert.deepEqual(el.form.summary, ['email', 'first_name', 'last_name', 'resume', 'bio_url', 'consent']);
    assert.equal(el.focused, 'error-summary');
    assert.equal(el.form.phase, 'form');
    assert.deepEqual(proxy.applications, []);
  });

  it('sends nothing before the form is shown, nor a second time while uploading', async () => {
    const proxy = await standIn({ answers: ['hang'] });
    const el = new ApplyElement(proxy.endpoint);
    await el.form.submit();
    await el.form.load();
    await el.updateComplete;
    el.fillRequired();
    const sending = el.form.submit();
    await proxy.applied(1);
    await el.form.submit();
    el.form.cancel();
    await sending;
    assert.equal(proxy.applications.length, 1);
  });

  it("clears the last send's banner when the candidate submits again", async () => {
    const { el } = await filled({ answers: [problem(429, 'rate_limited')] });
    await el.form.submit();
    assert.deepEqual(el.form.banner, { code: 'rate_limited', retry: false });
    el.type('email', '');
    await el.form.submit();
    assert.equal(el.form.banner, null);
    assert.deepEqual(el.form.errors, { email: 'This field is required.' });
  });
});

describe('the outcome of a send', { timeout: 5000 }, () => {
  it('shows the success, focused and announced, with the receipt link on the proxy, and dispatches the events in order', async () => {
    const { proxy, el } = await filled();
    NodeXMLHttpRequest.uploadSteps = [0.5, 1];
    await el.form.submit();
    assert.equal(el.form.phase, 'success');
    assert.equal(el.form.outcome, 'delivered');
    assert.equal(el.form.receipt, `${proxy.endpoint}/applications/receipt/tok-1`);
    assert.equal(el.focused, 'outcome');
    assert.equal(el.announced.at(-1), 'Application received.');
    assert.deepEqual(
      el.events.map((e) => e.type),
      ['jobboard-apply-submit', 'jobboard-upload-progress', 'jobboard-upload-progress', 'jobboard-apply-success'],
    );
    assert.deepEqual(el.events[0]!.detail, { campaignId: 101 });
    assert.deepEqual(el.events.at(-1)!.detail, { campaignId: 101, status: 'delivered' });
  });

  it('says a 202 answer is queued', async () => {
    const answer: Answer = {
      status: 202,
      body: {
        status: 'queued',
        reference: 'r',
        campaign_id: 101,
        kind: 'offer',
        receipt_url: 'https://proxy.example/r/2',
      },
    };
    const { el } = await filled({ answers: [answer] });
    await el.form.submit();
    assert.deepEqual(
      [el.form.phase, el.form.outcome, el.form.receipt],
      ['success', 'queued', 'https://proxy.example/r/2'],
    );
    assert.deepEqual(el.events.at(-1)!.detail, { campaignId: 101, status: 'queued' });
  });

  it('takes a 201 whose body is not JSON as delivered, without a receipt link', async () => {
    const { el } = await filled({ answers: [{ status: 201, body: '<html>Created</html>' }] });
    await el.form.submit();
    assert.deepEqual([el.form.phase, el.form.outcome, el.form.receipt], ['success', 'delivered', null]);
  });

  it('links no receipt that is not http(s)', async () => {
    const { el } = await filled({ answers: [delivered('javascript:alert(1)')] });
    await el.form.submit();
    assert.equal(el.form.receipt, null);
  });

  it('empties the values and the draft after a success, and reset opens an empty form', async () => {
    const proxy = await standIn();
    const el = await openForm(proxy.endpoint);
    el.type('email', 'ada@example.com');
    await el.form.submit();
    el.fillRequired();
    await el.form.submit();
    assert.equal(el.form.phase, 'success');
    assert.deepEqual(el.form.values, {});
    assert.deepEqual((await openForm(proxy.endpoint)).form.values, { phone_code: '+44' });
    el.form.reset();
    assert.equal(el.form.phase, 'loading');
    await until(() => el.form.phase === 'form', 'the form shows again');
    assert.deepEqual(
      [el.form.outcome, el.form.errors, el.form.summary, el.form.banner, el.form.resume, el.form.values],
      [null, {}, [], null, null, { phone_code: '+44' }],
    );
    assert.equal(el.control('email').value, '');
  });

  it('shows the bytes sent, and says the progress once a quarter, from the start of each send, then how it ended', async () => {
    const { el } = await filled({ answers: [problem(503, 'not_ready')] });
    NodeXMLHttpRequest.uploadSteps = [0.3, 0.4, 0.6, 0.8, 0.9, 1];
    const seen: unknown[] = [];
    el.addEventListener('jobboard-upload-progress', (e) => seen.push([el.form.progress, (e as CustomEvent).detail]));
    await el.form.submit();
    const announced = ['Upload 30%', 'Upload 60%', 'Upload 80%', 'Upload 100%'];
    const failed = 'The service is starting. Try again in a moment.';
    assert.deepEqual(el.announced, ['Sending your application…', ...announced, failed]);
    assert.deepEqual(
      seen.map((s) => (s as [number])[0]),
      [30, 40, 60, 80, 90, 100],
    );
    const [, detail] = seen.at(-1) as [number, { campaignId: number; loaded: number; total: number }];
    assert.equal(detail.campaignId, 101);
    assert.ok(detail.loaded === detail.total && detail.total > 600);
    el.form.retry();
    await settled(el);
    assert.deepEqual(el.announced.slice(6), ['Sending your application…', ...announced, 'Application received.']);
  });
});

describe('sending photos of the resume pages', { timeout: 5000 }, () => {
  it('posts the pages as resume_pages, in their order, and no resume file', async () => {
    const { proxy, el } = await filled();
    el.form.setPages([page('p1.jpg', 300), page('p2.jpg', 400)]);
    await el.form.submit();
    assert.equal(el.form.phase, 'success');
    assert.deepEqual(proxy.applications[0]!.fileParts, [
      { field: 'resume_pages', name: 'p1.jpg', size: 300, type: 'image/jpeg' },
      { field: 'resume_pages', name: 'p2.jpg', size: 400, type: 'image/jpeg' },
    ]);
  });

  it('sends a new idempotency key once the pages change after a send, and none is left for the next application', async () => {
    const { proxy, el } = await filled({ answers: ['drop'] });
    await el.form.submit();
    el.form.setPages([page()]);
    el.form.retry();
    await settled(el);
    const [first, second] = keys(proxy.applications);
    assert.notEqual(second, first);
    el.form.reset();
    assert.deepEqual(el.form.pages, []);
  });
});

describe('the idempotency key', { timeout: 5000 }, () => {
  it('is sent again by a retry after a lost connection, so the application is not doubled', async () => {
    const { proxy, el } = await filled({ answers: ['drop', 'drop'] });
    await el.form.submit();
    assert.deepEqual(el.form.banner, { code: 'network_error', retry: true });
    assert.deepEqual(el.events.at(-1), {
      type: 'jobboard-apply-error',
      detail: { campaignId: 101, code: 'network_error' },
    });
    el.form.retry();
    assert.equal(el.form.banner, null);
    await settled(el);
    el.form.retry();
    await settled(el);
    assert.equal(el.form.phase, 'success');
    const [first] = keys(proxy.applications);
    assert.match(first!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(keys(proxy.applications), [first, first, first]);
  });

  it('is new once the candidate edits the form, and kept by the retries after', async () => {
    const { proxy, el } = await filled({ answers: ['drop', 'drop'] });
    await el.form.submit();
    el.type('first_name', 'Augusta Ada');
    el.form.retry();
    await settled(el);
    el.form.retry();
    await settled(el);
    const [first, second, third] = keys(proxy.applications);
    assert.notEqual(second, first);
    assert.equal(third, second);
  });

  it("is not changed by an input without an id (the captcha's)", async () => {
    const { proxy, el } = await filled({ answers: ['drop'] });
    await el.form.submit();
    el.form.input({ target: { id: '', value: 'x', type: 'text' } } as unknown as Event);
    el.form.retry();
    await settled(el);
    const [first, second] = keys(proxy.applications);
    assert.equal(second, first);
  });

  it('is new for the next application after a success', async () => {
    const { proxy, el } = await filled();
    await el.form.submit();
    el.form.reset();
    await until(() => el.form.phase === 'form', 'the form shows again');
    el.fillRequired();
    await el.form.submit();
    const [first, second] = keys(proxy.applications);
    assert.notEqual(second, first);
  });

  it('is not sent again once the proxy says it was used for another content', async () => {
    const { proxy, el } = await filled({ answers: [problem(422, 'idempotency_key_reused')] });
    await el.form.submit();
    assert.deepEqual(el.form.banner, { code: 'idempotency_key_reused', retry: false });
    await el.form.submit();
    const [first, second] = keys(proxy.applications);
    assert.notEqual(second, first);
  });
});

describe('the checks before a send', { timeout: 5000 }, () => {
  const text = (name: string) => new File(['Ada Lovelace\nAnalyst\n'], name, { type: 'application/pdf' });

  it('lists a bad email and a text file named cv.pdf together on the first submit, sending nothing', async () => {
    const { proxy, el } = await filled();
    el.type('email', 'ada@example');
    el.choose('resume', text('cv.pdf'));
    await el.form.submit();
    assert.deepEqual(el.form.errors, {
      email: 'Enter an email address like name@example.com.',
      resume: 'This file is not a real PDF: it is a text file.',
    });
    assert.deepEqual(el.form.summary, ['email', 'resume']);
    assert.deepEqual(proxy.applications, []);
  });

  it('names no type for bytes it cannot tell, and sends a file that starts as a resume does', async () => {
    const { proxy, el } = await filled();
    el.choose('resume', new File([Uint8Array.of(0x4d, 0x5a, 0x90, 0, 3)], 'photo.JPEG'));
    await el.form.submit();
    assert.deepEqual(el.form.errors, { resume: 'This file is not a real JPEG.' });
    el.choose('resume', new File([Uint8Array.of(0xff, 0xd8, 0xff, 0xe0)], 'photo.jpeg'));
    assert.deepEqual(el.form.errors, {});
    await el.form.submit();
    assert.equal(proxy.applications.length, 1);
  });

  it('says a wrong file as soon as it is chosen, and judges each file by its own bytes', async () => {
    const { el } = await filled();
    el.choose('resume', text('cv.pdf'));
    await until(() => el.form.errors.resume !== undefined, 'the file is read');
    assert.deepEqual(el.form.errors, { resume: 'This file is not a real PDF: it is a text file.' });
    el.choose('resume', text('cv.docx'));
    // Until its own bytes are read, the error of the file before is not its.
    assert.deepEqual(el.form.errors, {});
    await until(() => el.form.errors.resume !== undefined, 'the file is read');
    assert.deepEqual(el.form.errors, { resume: 'This file is not a real DOCX: it is a text file.' });
    // A file chosen just before the submit is read before the checks.
    el.choose('resume', resume('cv.pdf'));
    el.choose('resume', text('cv.pdf'));
    await el.form.submit();
    assert.deepEqual(el.form.errors, { resume: 'This file is not a real PDF: it is a text file.' });
    assert.deepEqual(el.form.summary, ['resume']);
  });

  it('asks for the country code of a phone number, and takes no code without a number', async () => {
    const { proxy, el } = await filled();
    el.type('phone_code', '');
    el.type('phone_number', '06 12 34 56 78');
    await el.form.submit();
    assert.deepEqual(el.form.errors, { phone_code: 'This field is required.' });
    el.type('phone_number', '');
    await el.form.submit();
    assert.equal(proxy.applications.length, 1);
  });
});

describe('a send that fails', { timeout: 5000 }, () => {
  it("lists every field problem of the proxy's 422 at once, the resume's saying what its bytes are", async () => {
    const errors = [
      { field: 'email', code: 'invalid_email' as const, message: 'Enter a valid email address.' },
      {
        field: 'resume',
        code: 'unsupported_file_type' as const,
        message: 'This file is not a real PDF: its content is XLSX.',
        detected_type: 'xlsx',
      },
    ];
    const { el } = await filled({ answers: [problem(422, 'validation_failed', errors)] });
    await el.form.submit();
    assert.deepEqual(el.form.errors, {
      email: 'Enter an email address like name@example.com.',
      resume: 'This file is not a real PDF: its content is XLSX.',
    });
    assert.deepEqual(el.form.summary, ['email', 'resume']);
    assert.equal(el.focused, 'error-summary');
  });

  it('says a 415 of a file named .pdf as not a real PDF, and what it is when the proxy knows', async () => {
    const errors = [
      {
        field: 'resume',
        code: 'unsupported_file_type' as const,
        message: 'This file is not a real PDF: it is a text file.',
        detected_type: 'txt',
      },
    ];
    const { el } = await filled({
      answers: [problem(415, 'unsupported_file_type', errors), problem(415, 'unsupported_file_type')],
    });
    await el.form.submit();
    assert.deepEqual(el.form.errors, { resume: 'This file is not a real PDF: it is a text file.' });
    await el.form.submit();
    assert.deepEqual(el.form.errors, { resume: 'This file is not a real PDF.' });
  });

  it("shows the proxy's refusal on the field, focuses the summary and says no banner", async () => {
    const errors = [{ field: 'email', code: 'invalid_email' as const, message: 'Enter a valid email address.' }];
    const { el } = await filled({ answers: [problem(422, 'validation_failed', errors)] });
    await el.form.submit();
    assert.equal(el.form.phase, 'form');
    assert.deepEqual(el.form.errors, { email: 'Enter an email address like name@example.com.' });
    assert.deepEqual(el.form.summary, ['email']);
    assert.equal(el.form.banner, null);
    assert.equal(el.focused, 'error-summary');
    assert.equal(
      el.form.announcement,
      'The form has problems. Correct them and send it again. Enter an email address like name@example.com.',
    );
    assert.deepEqual(el.events.at(-1)!.detail, { campaignId: 101, code: 'validation_failed' });
  });

  it('says with a banner a refusal of a field the form does not show', async () => {
    const errors = [{ field: 'bio_url', code: 'invalid_url' as const, message: 'Enter a valid URL.' }];
    const { el } = await filled({ answers: [problem(422, 'validation_failed', errors)] });
    el.setAttribute('field-bio-url', 'hidden');
    await el.updateComplete;
    await el.form.submit();
    assert.deepEqual(el.form.banner, { code: 'validation_failed', retry: false });
    assert.deepEqual(el.form.errors, {});
  });

  it("says the proxy's size limit on a resume it found too large", async () => {
    const { el } = await filled({ answers: [problem(413, 'file_too_large')] });
    await el.form.submit();
    assert.deepEqual(el.form.errors, { resume: 'The file is larger than 10\u00a0MB.' });
    assert.equal(el.focused, 'error-summary');
  });

  it('shows that the candidate applied already, focused and announced, and forgets the draft', async () => {
    const { proxy, el } = await filled({ answers: [problem(409, 'already_applied')] });
    await el.form.submit();
    assert.equal(el.form.phase, 'already-applied');
    assert.equal(el.focused, 'outcome');
    assert.equal(
      el.announced.at(-1),
      'You have already applied to this offer. Your application is with the recruiter.',
    );
    assert.deepEqual(el.events.at(-1)!.detail, { campaignId: 101, code: 'already_applied' });
    assert.deepEqual((await openForm(proxy.endpoint)).form.values, { phone_code: '+44' });
  });

  it('keeps the draft, so that a reload of the page brings the text back', async () => {
    const { proxy, el } = await filled({ answers: ['drop'] });
    await el.form.submit();
    assert.equal((await openForm(proxy.endpoint)).form.values.email, 'ada@example.com');
  });

  it('shows a banner the element asks for (the captcha could not load)', async () => {
    const { el } = await filled();
    el.form.showBanner({ code: 'captcha_unavailable', retry: false });
    assert.deepEqual(el.form.banner, { code: 'captcha_unavailable', retry: false });
  });

  it('goes back to the form when the candidate cancels the upload, with a banner and no retry', async () => {
    const { proxy, el } = await filled({ answers: ['hang'] });
    const sending = el.form.submit();
    await proxy.applied(1);
    assert.equal(el.form.phase, 'uploading');
    el.form.cancel();
    await sending;
    assert.equal(el.form.phase, 'form');
    assert.deepEqual(el.form.banner, { code: 'upload_cancelled', retry: false });
    assert.equal(el.form.announcement, 'Upload cancelled. Your application was not sent.');
    assert.deepEqual(el.events.at(-1)!.detail, { campaignId: 101, code: 'upload_cancelled' });
  });

  it('cancels the upload when the element leaves the page', async () => {
    const { proxy, el } = await filled({ answers: ['hang'] });
    const sending = el.form.submit();
    await proxy.applied(1);
    el.disconnect();
    await sending;
    assert.deepEqual(el.form.banner, { code: 'upload_cancelled', retry: false });
  });

  it('does nothing on cancel or leaving the page with nothing uploading', async () => {
    const { el } = await filled();
    el.form.cancel();
    el.disconnect();
    await el.form.submit();
    el.form.cancel();
    assert.equal(el.form.phase, 'success');
  });
});

describe('the receipt link', () => {
  it('is absolute: a root-relative one is on the proxy, which may be on the page', () => {
    assert.equal(receiptLink('/r/1', 'https://proxy.example/base'), 'https://proxy.example/r/1');
    assert.equal(receiptLink('r/1', 'https://proxy.example/base/'), 'https://proxy.example/base/r/1');
    assert.equal(receiptLink('/r/1', '/proxy'), new URL('/r/1', PAGE_URL).href);
    assert.equal(receiptLink('http://proxy.example/r/1', '/proxy'), 'http://proxy.example/r/1');
  });

  it('is none without a link, or for one that is not http(s) or not a URL', () => {
    assert.deepEqual(
      [undefined, '', 'javascript:alert(1)', 'xhttps://proxy.example/r/1', 'http://[::1'].map((link) =>
        receiptLink(link, 'https://proxy.example'),
      ),
      [null, null, null, null, null],
    );
  });
});
