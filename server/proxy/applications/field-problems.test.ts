import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../client/index.ts';
import { fieldProblems, formFieldOf } from './field-problems.ts';

const where = { method: 'POST', url: 'http://upstream/v2/jobboards/applicants' };

/** A refusal of the service with these field details. */
function refusal(code: string, details: { field: string; message: string }[] = []): ApiError {
  return new ApiError({ ...where, status: 422, code, message: 'refused', details });
}

/** The [field, code] of each problem. */
const codes = (error: ApiError) => fieldProblems(error).map((p) => [p.field, p.code]);

describe('formFieldOf', () => {
  it("maps upstream field paths to the form's field names", () => {
    assert.equal(formFieldOf('applicant.email'), 'email');
    assert.equal(formFieldOf('applicant_email'), 'email');
    assert.equal(formFieldOf('applicant.resume.base64'), 'resume');
    assert.equal(formFieldOf('application.resume.mime_type'), 'resume');
    assert.equal(formFieldOf('applicant.applications.0.comments.0.content'), 'cover_letter');
    assert.equal(formFieldOf('applicant.applications.0.campaign_id'), 'campaign_id');
    assert.equal(formFieldOf('applicant.locale'), 'locale');
    assert.equal(formFieldOf('something.else'), 'form');
  });

  it('names the field under the campaign when the path holds both (the campaign only when nothing else matches)', () => {
    assert.equal(formFieldOf('campaign_id.applicant.first_name'), 'first_name');
    assert.equal(formFieldOf('campaign_id'), 'campaign_id');
  });
});

describe('fieldProblems', () => {
  it('gives each refused field one problem, in our own words with the message of its code', () => {
    const problems = fieldProblems(
      refusal('validation_failed', [
        { field: 'applicant.phone_number', message: 'must be a phone number' },
        { field: 'applicant.phone_number', message: 'must not be empty' },
        { field: 'applicant.email', message: 'must be an email' },
      ]),
    );
    assert.deepEqual(problems, [
      {
        field: 'phone_number',
        code: 'invalid_phone',
        message: 'The recruitment service refused this value. Enter a valid phone number.',
      },
      {
        field: 'email',
        code: 'invalid_email',
        message: 'The recruitment service refused this value. Enter a valid email address.',
      },
    ]);
  });

  it('says too_long for a value refused as too long, but never for the resume', () => {
    assert.deepEqual(codes(refusal('validation_failed', [{ field: 'applicant.first_name', message: 'is Too Long' }])), [
      ['first_name', 'too_long'],
    ]);
    assert.deepEqual(
      codes(refusal('validation_failed', [{ field: 'applicant.last_name', message: 'at most 100 characters' }])),
      [['last_name', 'too_long']],
    );
    assert.deepEqual(
      codes(refusal('validation_failed', [{ field: 'applicant.resume.base64', message: 'at most 5 MiB' }])),
      [['resume', 'unsupported_file_type']],
    );
  });

  it('says the service refused the resume with the sentence of its code, as for any other field', () => {
    assert.deepEqual(
      fieldProblems(refusal('validation_failed', [{ field: 'applicant.resume.base64', message: 'not a pdf' }])).map(
        (p) => p.message,
      ),
      ['The recruitment service refused this value. This file type is not accepted.'],
    );
  });

  it('says file_too_large on the field the service named when it refuses the file as too large', () => {
    assert.deepEqual(
      codes(refusal('file_too_large', [{ field: 'applicant.resume.base64', message: 'at most 5 MiB' }])),
      [['resume', 'file_too_large']],
    );
  });

  it('without field details, puts a refused file on the resume and anything else on the whole form', () => {
    assert.deepEqual(
      ['file_too_large', 'unsupported_media_type', 'file_type_mismatch', 'validation_failed'].map((code) =>
        codes(refusal(code)),
      ),
      [
        [['resume', 'file_too_large']],
        [['resume', 'unsupported_file_type']],
        [['resume', 'unsupported_file_type']],
        [['form', 'invalid_value']],
      ],
    );
    assert.deepEqual(
      fieldProblems(refusal('validation_failed')).map((p) => p.message),
      ['The recruitment service refused this application.'],
    );
  });
});
