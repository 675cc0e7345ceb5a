// POST /api/applications against the sandbox over real HTTP: validation
// codes, files, idempotency, double submits, returning candidates, spam
// limits, and what never leaves the proxy (secrets, personal data in logs).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEMO_KEYS } from '../server/sandbox/index.ts';
import {
  apply,
  fetch,
  startApplyWorld,
  uniqueEmail,
  upstreamApplicantCount,
  upstreamApplications,
  upstreamResumePath,
  validFields,
} from './proxy-apply.test-support.ts';
import * as files from '../server/test/files.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { eventually } from '../server/test/poll.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';

function fieldCodes(body: Record<string, unknown>): [string, string][] {
  return ((body.errors ?? []) as { field: string; code: string }[]).map((e) => [e.field, e.code]);
}

describe('POST /api/applications against the sandbox', () => {
  let world: ApplyWorld;
  let campaign: number;
  let otherCampaign: number;
  const responses: string[] = [];

  const send = async (input: Parameters<typeof apply>[1]) => {
    const answer = await apply(world.proxyUrl, input);
    responses.push(JSON.stringify([...answer.headers]) + answer.text);
    return answer;
  };

  before(async () => {
    world = await startApplyWorld({ env: { MAX_RESUME_BYTES: String(1024 * 1024) } });
    [campaign, otherCampaign] = world.openCampaignIds as [number, number];
  });
  after(async () => {
    await world.close();
  });

  it('when the form is complete, delivers it and answers 201 delivered with a reference', async () => {
    const fields = validFields(campaign);
    const answer = await send({ fields });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.status, 'delivered');
    assert.equal(answer.body.campaign_id, campaign);
    assert.match(String(answer.body.reference), /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      upstreamApplications(world.sandbox, fields.email!).map((a) => a.campaign_id),
      [campaign],
    );
    const row = await world.applications.outbox.get(String(answer.body.reference));
    assert.equal(row?.status, 'delivered');
    assert.equal(row?.resume_bytes, null, 'the resume is deleted once delivered');
    assert.equal(row?.payload, null, 'the personal data is deleted once delivered');
  });

  it('sends the cover letter upstream as a comment of the application', async () => {
    const fields = { ...validFields(campaign), cover_letter: 'Cover letter with a unique phrase: zebra-42' };
    assert.equal((await send({ fields })).status, 201);
    const [application] = upstreamApplications(world.sandbox, fields.email!);
    const comment = world.sandbox.context.db.get<{ content: string }>(
      'SELECT content FROM comments WHERE application_id = ?',
      application!.id,
    );
    assert.equal(comment?.content, fields.cover_letter);
  });

  describe('validation: every problem named with its field and code, nothing sent upstream', () => {
    const cases: [string, (f: Record<string, string>) => Record<string, string>, [string, string]][] = [
      ['the email is missing', ({ email: _e, ...f }) => f, ['email', 'required']],
      ['the email is not an address', (f) => ({ ...f, email: 'not-an-address' }), ['email', 'invalid_email']],
      ['a required first name is missing', ({ first_name: _n, ...f }) => f, ['first_name', 'required']],
      [
        'the last name is longer than 100 characters',
        (f) => ({ ...f, last_name: 'x'.repeat(101) }),
        ['last_name', 'too_long'],
      ],
      [
        'the portfolio URL is not http(s)',
        (f) => ({ ...f, bio_url: 'javascript:alert(1)' }),
        ['bio_url', 'invalid_url'],
      ],
      [
        'the phone number has letters',
        (f) => ({ ...f, phone_number: 'call me maybe' }),
        ['phone_number', 'invalid_phone'],
      ],
      ['the country calling code is not one', (f) => ({ ...f, phone_code: '0033x' }), ['phone_code', 'invalid_phone']],
      ['the locale is not fr, en or es', (f) => ({ ...f, locale: 'de' }), ['locale', 'invalid_value']],
      ['campaign_id is not a number', (f) => ({ ...f, campaign_id: '12abc' }), ['campaign_id', 'invalid_value']],
      ['campaign_id is missing', ({ campaign_id: _c, ...f }) => f, ['campaign_id', 'required']],
      [
        'the consent box is not ticked',
        ({ is_legals_accepted_by_manager: _c, ...f }) => f,
        ['is_legals_accepted_by_manager', 'consent_required'],
      ],
      [
        'a checkbox carries something else than true/on/1/false',
        (f) => ({ ...f, is_campaign_alert_active: 'maybe' }),
        ['is_campaign_alert_active', 'invalid_value'],
      ],
      [
        'the cover letter is longer than 10,000 characters',
        (f) => ({ ...f, cover_letter: 'é'.repeat(10_001) }),
        ['cover_letter', 'too_long'],
      ],
    ];
    for (const [situation, change, expected] of cases) {
      it(`when ${situation}, answers 422 validation_failed with ${expected[0]}: ${expected[1]}`, async () => {
        const fields = change(validFields(campaign));
        const answer = await send({ fields });
        assert.equal(answer.status, 422);
        assert.equal(answer.body.code, 'validation_failed');
        assert.equal(answer.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        assert.deepEqual(fieldCodes(answer.body), [expected]);
        if (fields.email !== undefined) assert.equal(upstreamApplicantCount(world.sandbox, fields.email), 0);
      });
    }

    it('when the resume is missing, answers 422 with resume: file_required', async () => {
      const answer = await send({ fields: validFields(campaign), resume: null });
      assert.equal(answer.status, 422);
      assert.deepEqual(fieldCodes(answer.body), [['resume', 'file_required']]);
    });

    it('lists every wrong field at once', async () => {
      const answer = await send({
        fields: { campaign_id: String(campaign), email: 'nope', bio_url: 'ftp://x' },
        resume: null,
      });
      assert.deepEqual(
        fieldCodes(answer.body).sort(),
        [
          ['bio_url', 'invalid_url'],
          ['email', 'invalid_email'],
          ['first_name', 'required'],
          ['is_legals_accepted_by_manager', 'consent_required'],
          ['last_name', 'required'],
          ['resume', 'file_required'],
        ].sort(),
      );
    });
  });

  describe('files', () => {
    it('takes a legacy .doc (OLE2) and a png by their bytes, whatever name and type they were sent with, and sends them as what they are', async () => {
      const sent = [
        { bytes: files.doc(), name: 'cv.pdf', type: 'application/pdf', is: 'doc' },
        { bytes: files.png(), name: 'resume', type: 'application/octet-stream', is: 'png' },
      ];
      for (const resume of sent) {
        const fields = validFields(campaign);
        assert.equal((await send({ fields, resume })).status, 201, resume.is);
        const path = await eventually(() => upstreamResumePath(world.sandbox, fields.email), {
          timeoutMs: 10_000,
          what: 'the sandbox to store the resume',
        });
        // The service stores a file under the type it was sent as, once it checked the bytes are of that type.
        assert.match(path, new RegExp(`\\.${resume.is}$`), resume.is);
      }
    });

    it('when an executable is renamed cv.pdf, answers 415 unsupported_file_type and sends nothing', async () => {
      const fields = validFields(campaign);
      const answer = await send({ fields, resume: { bytes: files.exe(), name: 'cv.pdf', type: 'application/pdf' } });
      assert.equal(answer.status, 415);
      assert.equal(answer.body.code, 'unsupported_file_type');
      assert.deepEqual(fieldCodes(answer.body), [['resume', 'unsupported_file_type']]);
      assert.equal(upstreamApplicantCount(world.sandbox, fields.email!), 0);
    });

    it('when a text file is named cv.pdf, answers 415 saying it is no real PDF but a text file, with detected_type txt', async () => {
      const answer = await send({
        fields: validFields(campaign),
        resume: { bytes: Buffer.from('Jane Doe\nDeveloper\n'), name: 'cv.pdf', type: 'application/pdf' },
      });
      assert.equal(answer.status, 415);
      assert.equal(answer.body.code, 'unsupported_file_type');
      assert.match(String(answer.body.detail), /^This file is not a real PDF: it is a text file\./);
      assert.deepEqual(answer.body.errors, [
        {
          field: 'resume',
          code: 'unsupported_file_type',
          message: 'This file is not a real PDF: it is a text file.',
          detected_type: 'txt',
        },
      ]);
    });

    it('when the email is not valid and a text file is named cv.pdf, answers one 422 listing both problems', async () => {
      const fields = { ...validFields(campaign), email: 'jane@example' };
      const answer = await send({
        fields,
        resume: { bytes: Buffer.from('Jane Doe\nDeveloper\n'), name: 'cv.pdf', type: 'application/pdf' },
      });
      assert.equal(answer.status, 422);
      assert.equal(answer.body.code, 'validation_failed');
      assert.deepEqual(fieldCodes(answer.body), [
        ['email', 'invalid_email'],
        ['resume', 'unsupported_file_type'],
      ]);
      const resume = (answer.body.errors as { field: string; detected_type?: string }[]).find(
        (e) => e.field === 'resume',
      );
      assert.equal(resume?.detected_type, 'txt');
    });

    it('when a field is missing and a workbook is named cv.docx (a zip, written to disk then read whole), answers one 422 listing both', async () => {
      const answer = await send({
        fields: { ...validFields(campaign), first_name: '' },
        resume: { bytes: files.xlsx(), name: 'cv.docx', type: 'application/msword' },
      });
      assert.equal(answer.status, 422);
      assert.deepEqual(fieldCodes(answer.body), [
        ['first_name', 'required'],
        ['resume', 'unsupported_file_type'],
      ]);
      assert.deepEqual((answer.body.errors as { message: string }[])[1], {
        field: 'resume',
        code: 'unsupported_file_type',
        message: 'This file is not a real DOCX: its content is XLSX.',
        detected_type: 'xlsx',
      });
    });

    it('when a spreadsheet is renamed cv.doc (an OLE2 file without a Word document), answers 415 unsupported_file_type', async () => {
      const answer = await send({
        fields: validFields(campaign),
        resume: { bytes: files.xls(), name: 'cv.doc', type: 'application/msword' },
      });
      assert.equal(answer.status, 415);
      assert.deepEqual(fieldCodes(answer.body), [['resume', 'unsupported_file_type']]);
    });

    it('when the resume is just over the limit, answers 413 file_too_large naming the limit', async () => {
      const answer = await send({ fields: validFields(campaign), resume: { bytes: files.pdfOfSize(1024 * 1024 + 1) } });
      assert.equal(answer.status, 413);
      assert.equal(answer.body.code, 'file_too_large');
      assert.match(String(answer.body.detail), /1 MiB \(1048576 bytes\)/);
      assert.deepEqual(fieldCodes(answer.body), [['resume', 'file_too_large']]);
    });

    it('delivers the resume to the service byte for byte, streamed from the file it was written to', async () => {
      const resume = Buffer.concat([
        Buffer.from('%PDF-1.4\n'),
        randomBytes(1024 * 1024 - 16),
        Buffer.from('\n%%EOF\n'),
      ]);
      const fields = validFields(campaign);
      assert.equal((await send({ fields, resume: { bytes: resume } })).status, 201);
      const path = await eventually(() => upstreamResumePath(world.sandbox, fields.email), {
        timeoutMs: 10_000,
        what: 'the sandbox to store the resume',
      });
      const stored = Buffer.from(await (await fetch(new URL(path, world.sandbox.origin))).arrayBuffer());
      assert.ok(
        stored.equals(resume),
        `the service holds ${stored.length} bytes, the same as sent: ${stored.equals(resume)}`,
      );
    });

    it('writes a resume to the data directory as it arrives, and nothing of a file that starts as no resume type', async () => {
      const uploads = join(world.config.dataDir, 'uploads');
      /** Sends the form up to the first 256 KiB of the resume, and the rest when asked. */
      const upload = (head: Buffer) => {
        let req!: ClientRequest;
        const answer = new Promise<number>((resolve, reject) => {
          req = request(`${world.proxyUrl}/api/applications`, {
            method: 'POST',
            headers: {
              'content-type': 'multipart/form-data; boundary=XX',
              'idempotency-key': crypto.randomUUID(),
              origin: 'https://board.example',
            },
          });
          req.on('response', (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
        });
        const fields = Object.entries(validFields(campaign))
          .map(([name, value]) => `--XX\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
          .join('');
        req.write(
          `${fields}--XX\r\nContent-Disposition: form-data; name="resume"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        );
        req.write(Buffer.concat([head, Buffer.alloc(256 * 1024 - head.length, 0x41)]));
        return {
          answer,
          finish: () =>
            req.end(Buffer.concat([Buffer.alloc(256 * 1024, 0x41), Buffer.from('\n%%EOF\n\r\n--XX--\r\n')])),
        };
      };
      const written = () => readdirSync(uploads).reduce((sum, name) => sum + statSync(join(uploads, name)).size, 0);

      const pdf = upload(Buffer.from('%PDF-1.4\n'));
      await eventually(() => written() >= 128 * 1024, {
        timeoutMs: 10_000,
        what: 'the first part of the resume on the disk',
      });
      pdf.finish();
      assert.equal(await pdf.answer, 201);
      assert.deepEqual(readdirSync(uploads), [], 'the stored upload left for the outbox');

      const exe = upload(files.exe());
      // Its first bytes have long arrived when a PDF's were on the disk above.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(written(), 0);
      exe.finish();
      assert.equal(await exe.answer, 415);
      assert.deepEqual(readdirSync(uploads), []);
    });

    it('takes a resume of exactly the limit', async () => {
      assert.equal(
        (await send({ fields: validFields(campaign), resume: { bytes: files.pdfOfSize(1024 * 1024) } })).status,
        201,
      );
    });

    it('when a huge upload streams in without a length, answers 413 before the client has sent it all', async () => {
      const total = 48 * 1024 * 1024;
      let sent = 0;
      const outcome = await new Promise<{ status: number; body: string; sentWhenAnswered: number }>(
        (resolve, reject) => {
          const req = request(`${world.proxyUrl}/api/applications`, {
            method: 'POST',
            headers: {
              'content-type': 'multipart/form-data; boundary=XX',
              'idempotency-key': crypto.randomUUID(),
              'transfer-encoding': 'chunked',
            },
          });
          req.on('response', (res) => {
            const sentWhenAnswered = sent;
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sentWhenAnswered }));
          });
          req.on('error', reject);
          req.write(
            '--XX\r\nContent-Disposition: form-data; name="resume"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n',
          );
          const chunk = Buffer.alloc(64 * 1024, 0x41);
          const pump = () => {
            while (sent < total) {
              sent += chunk.length;
              if (!req.write(chunk)) {
                req.once('drain', pump);
                return;
              }
            }
            req.end('\r\n--XX--\r\n');
          };
          pump();
        },
      );
      assert.equal(outcome.status, 413);
      assert.equal(JSON.parse(outcome.body).code, 'file_too_large');
      assert.ok(outcome.sentWhenAnswered < total, `answered after ${outcome.sentWhenAnswered} of ${total} bytes`);
    });

    // Every field's own rule is far under 64 KiB of text (10,000 characters at
    // most, 40,000 bytes even in emoji), so a value that only the cut refuses
    // is one whose trimmed text fits: a short value padded with blanks.
    for (const name of ['first_name', 'cover_letter']) {
      it(`when a text field passes 64 KiB, cuts it and answers 422 too_long, even when its trimmed text would fit (${name})`, async () => {
        const fields = { ...validFields(campaign), [name]: `Ada${' '.repeat(70_000)}` };
        const answer = await send({ fields });
        assert.equal(answer.status, 422, answer.text);
        assert.deepEqual(fieldCodes(answer.body), [[name, 'too_long']]);
        assert.equal(upstreamApplicantCount(world.sandbox, fields.email), 0);
      });
    }

    it('takes a text field of 64 KiB less one byte whose trimmed text fits', async () => {
      // busboy calls a value that reaches its limit cut, so 64 KiB itself is refused.
      const fields = { ...validFields(campaign), cover_letter: `Ada${' '.repeat(64 * 1024 - 4)}` };
      assert.equal((await send({ fields })).status, 201);
    });

    it('when the form has more than 40 fields, answers 413 request_too_large', async () => {
      const fields: Record<string, string> = { ...validFields(campaign) };
      for (let i = 0; i < 45; i++) fields[`extra_${i}`] = 'x';
      const answer = await send({ fields });
      assert.equal(answer.status, 413);
      assert.equal(answer.body.code, 'request_too_large');
    });

    it('when a second file field is sent, answers 400 malformed_request', async () => {
      const form = new FormData();
      for (const [k, v] of Object.entries(validFields(campaign))) form.append(k, v);
      form.append('resume', new Blob([files.pdf()]), 'cv.pdf');
      form.append('photo', new Blob([files.png()]), 'me.png');
      const response = await fetch(`${world.proxyUrl}/api/applications`, {
        method: 'POST',
        headers: { 'idempotency-key': crypto.randomUUID() },
        body: form,
      });
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { code: string }).code, 'malformed_request');
    });
  });

  describe('campaign', () => {
    it('when the campaign is not in the catalogue, answers 404 campaign_not_found', async () => {
      const answer = await send({ fields: validFields(999_999) });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.code, 'campaign_not_found');
    });

    it('when the campaign was archived since the last sync, answers 422 campaign_closed (the service refuses it)', async () => {
      const closing = world.openCampaignIds[world.openCampaignIds.length - 1]!;
      await admin(world.sandbox, 'PATCH', `/campaigns/${closing}`, { status: 'archived' });
      const fields = validFields(closing);
      const answer = await send({ fields });
      assert.equal(answer.status, 422);
      assert.equal(answer.body.code, 'campaign_closed');
      assert.equal(upstreamApplicantCount(world.sandbox, fields.email!), 0);
    });
  });

  describe('idempotency', () => {
    it('when the same key comes back with the same form, replays the first answer and creates nothing more', async () => {
      const fields = validFields(campaign);
      const key = crypto.randomUUID();
      const first = await send({ fields, key });
      const second = await send({ fields, key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.text, first.text);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.equal(first.headers.get('idempotent-replayed'), null);
      assert.equal(upstreamApplications(world.sandbox, fields.email!).length, 1);
      assert.equal(upstreamApplicantCount(world.sandbox, fields.email!), 1);
    });

    it('when the same key comes with another form, answers 422 idempotency_key_reused', async () => {
      const key = crypto.randomUUID();
      assert.equal((await send({ fields: validFields(campaign), key })).status, 201);
      const answer = await send({ fields: validFields(campaign), key });
      assert.equal(answer.status, 422);
      assert.equal(answer.body.code, 'idempotency_key_reused');
    });

    it('when the same key comes with the same fields and another resume of the same name and size, answers 422 idempotency_key_reused', async () => {
      const key = crypto.randomUUID();
      const fields = validFields(campaign);
      const first = files.pdf({ text: 'Ada Lovelace, first draft', size: 4_000 });
      const second = files.pdf({ text: 'Ada Lovelace, final draft', size: 4_000 });
      assert.notDeepEqual(first, second);
      assert.equal((await send({ fields, key, resume: { bytes: first, name: 'cv.pdf' } })).status, 201);
      const answer = await send({ fields, key, resume: { bytes: second, name: 'cv.pdf' } });
      assert.equal(answer.status, 422);
      assert.equal(answer.body.code, 'idempotency_key_reused');
      assert.equal(upstreamApplications(world.sandbox, fields.email).length, 1);
    });

    it('when the same key comes with the same fields and the same resume under another file name, replays the first answer', async () => {
      const key = crypto.randomUUID();
      const fields = validFields(campaign);
      const resume = files.pdf({ text: 'Ada Lovelace', size: 4_000 });
      const first = await send({ fields, key, resume: { bytes: resume, name: 'cv.pdf' } });
      const again = await send({ fields, key, resume: { bytes: resume, name: 'ada-lovelace.pdf' } });
      assert.equal(first.status, 201);
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
    });

    it('when the key is missing, answers 400 idempotency_key_missing', async () => {
      const answer = await send({ fields: validFields(campaign), key: null });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'idempotency_key_missing');
    });

    it('after a validation error, takes the corrected form with the same key', async () => {
      const key = crypto.randomUUID();
      const fields = validFields(campaign);
      assert.equal((await send({ fields: { ...fields, email: 'broken' }, key })).status, 422);
      assert.equal((await send({ fields, key })).status, 201);
    });

    it('while the first request with a key is still being delivered, answers 409 idempotency_key_in_progress to the second', async () => {
      const fields = validFields(campaign);
      const key = crypto.randomUUID();
      await admin(world.sandbox, 'POST', '/faults', { count: 1, delay_ms: 800 });
      const first = send({ fields, key });
      await eventually(async () => (await world.applications.outbox.list({ status: 'delivering' })).length > 0, {
        timeoutMs: 5000,
        what: 'the first request to be delivering',
      });
      const second = await send({ fields, key });
      assert.equal(second.status, 409);
      assert.equal(second.body.code, 'idempotency_key_in_progress');
      assert.equal((await first).status, 201);
      assert.equal(upstreamApplications(world.sandbox, fields.email!).length, 1);
    });
  });

  describe('candidates', () => {
    it('when the candidate double-submits (two keys), the second answer is 409 already_applied and one application exists', async () => {
      const fields = validFields(campaign);
      const [a, b] = await Promise.all([send({ fields }), send({ fields })]);
      assert.deepEqual([a.status, b.status].sort(), [201, 409]);
      const refused = a.status === 409 ? a : b;
      assert.equal(refused.body.code, 'already_applied');
      assert.equal(upstreamApplications(world.sandbox, fields.email!).length, 1);
    });

    it('when a returning candidate applies to another offer, adds the application to the existing applicant', async () => {
      const email = uniqueEmail('returning');
      assert.equal((await send({ fields: validFields(campaign, email) })).status, 201);
      const second = await send({ fields: validFields(otherCampaign, email) });
      assert.equal(second.status, 201);
      assert.equal(upstreamApplicantCount(world.sandbox, email), 1);
      assert.deepEqual(
        upstreamApplications(world.sandbox, email)
          .map((a) => a.campaign_id)
          .sort(),
        [campaign, otherCampaign].sort(),
      );
      assert.equal(
        (await world.applications.outbox.get(String(second.body.reference)))?.outcome,
        'created_application',
      );
    });

    it('when the candidate already applied to this offer, answers 409 already_applied', async () => {
      const email = uniqueEmail('again');
      await send({ fields: validFields(campaign, email) });
      const answer = await send({ fields: validFields(campaign, email) });
      assert.equal(answer.status, 409);
      assert.equal(answer.body.code, 'already_applied');
    });
  });

  describe('spam', () => {
    it('when the honeypot is filled, answers like a success and sends nothing upstream', async () => {
      const fields = { ...validFields(campaign), website: 'http://spam.example' };
      const answer = await send({ fields });
      assert.equal(answer.status, 202);
      assert.equal(answer.body.status, 'queued');
      assert.equal(upstreamApplicantCount(world.sandbox, fields.email!), 0);
      assert.equal(await world.applications.outbox.get(String(answer.body.reference)), undefined);
    });

    it('when the honeypot holds what the candidate typed in another field (an autofill), delivers the application', async () => {
      const base = validFields(campaign);
      const answer = await send({ fields: { ...base, website: ` ${base.email.toUpperCase()} ` } });
      assert.equal(answer.status, 201);
      assert.equal(upstreamApplicantCount(world.sandbox, base.email), 1, 'the applicant was created upstream');
    });

    it('when the honeypot is filled, answers like a success even to an invalid form (a robot learns no rule)', async () => {
      const answer = await send({ fields: { campaign_id: '1', email: 'nope', website: 'x' }, resume: null });
      assert.equal(answer.status, 202);
    });
  });

  it('never puts a key, a token or an upstream error text in a response', () => {
    assert.ok(responses.length > 20);
    const all = responses.join('\n');
    for (const secret of [
      DEMO_KEYS.jobboard.private_key,
      DEMO_KEYS.jobboard.secret_key,
      'Bearer',
      world.sandbox.url,
      'Fault injected',
    ]) {
      assert.equal(all.includes(secret), false, `a response contains ${secret}`);
    }
    // A token is a JWT: header and claims both base64 JSON; "eyJ" alone turns up in random references.
    assert.doesNotMatch(all, /eyJ[\w-]+\.eyJ[\w-]+\./, 'a response contains a token');
  });

  it('logs the reference of each application, and no email, name, phone or letter', async () => {
    const fields = {
      ...validFields(campaign),
      first_name: 'Zénobie',
      last_name: 'Quartermaine',
      phone_number: '7 77 66 55 44',
      cover_letter: 'Secret letter 9f3a',
    };
    const answer = await send({ fields });
    assert.equal(answer.status, 201);
    const logs = world.logs.text();
    assert.ok(logs.includes(String(answer.body.reference)));
    for (const personal of [
      fields.email!,
      'Zénobie',
      'Quartermaine',
      '7 77 66 55 44',
      'Secret letter',
      '@example.org',
    ]) {
      assert.equal(logs.includes(personal), false, `the logs contain ${personal}`);
    }
  });

  it('counts applications in the metrics: each one received and delivered, each refusal by its code', async () => {
    /** The value of one series (0 when it has not been written yet). */
    const metrics = async () => {
      const text = await (await fetch(world.metricsUrl)).text();
      return (series: string) => {
        const line = text.split('\n').find((l) => l.startsWith(`${series} `));
        return line === undefined ? 0 : Number(line.slice(series.length + 1));
      };
    };
    const series = [
      'applications_received_total',
      'applications_delivered_total{outcome="created_applicant"}',
      'applications_refused_total{code="validation_failed"}',
      'applications_refused_total{code="idempotency_key_missing"}',
    ];
    const before = await metrics();
    const answers = [
      await send({ fields: validFields(campaign) }),
      await send({ fields: validFields(campaign) }),
      await send({ fields: { ...validFields(campaign), email: 'not-an-address' } }),
      await send({ fields: validFields(campaign), key: null }),
    ];
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 422, 400],
    );
    const after = await metrics();
    assert.deepEqual(
      series.map((s) => after(s) - before(s)),
      [2, 2, 1, 1],
      series.join(', '),
    );
    assert.equal(after('outbox_depth'), 0);
  });
});

describe('POST /api/applications rate limits', () => {
  let world: ApplyWorld;
  before(async () => {
    world = await startApplyWorld({ env: { APPLY_RATE_LIMIT_PER_IP: '4', APPLY_RATE_LIMIT_PER_EMAIL: '2' } });
  });
  after(async () => {
    await world.close();
  });

  it('past APPLY_RATE_LIMIT_PER_EMAIL applications of one email in a day, answers 429 rate_limited with Retry-After', async () => {
    const email = uniqueEmail('limited');
    const [a, b, c] = world.openCampaignIds as [number, number, number];
    assert.equal((await apply(world.proxyUrl, { fields: validFields(a, email) })).status, 201);
    assert.equal((await apply(world.proxyUrl, { fields: validFields(b, email) })).status, 201);
    const third = await apply(world.proxyUrl, { fields: validFields(c, email) });
    assert.equal(third.status, 429);
    assert.equal(third.body.code, 'rate_limited');
    assert.ok(Number(third.headers.get('retry-after')) > 0);
  });

  it('past APPLY_RATE_LIMIT_PER_IP requests of one address in an hour, answers 429 rate_limited', async () => {
    // the 3 requests above counted too
    const fourth = await apply(world.proxyUrl, { fields: validFields(world.openCampaignIds[0]!) });
    assert.equal(fourth.status, 201);
    const fifth = await apply(world.proxyUrl, { fields: validFields(world.openCampaignIds[0]!) });
    assert.equal(fifth.status, 429);
    assert.match(String(fifth.body.detail), /network/);
  });
});
