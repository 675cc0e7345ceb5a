// The service's refusal of an application's values, in the form's terms: the
// field of the form each upstream error path names, and the candidate's
// message for it (our own words, never the service's).
import type { ApiError } from '../../client/index.ts';
import { APPLICATION_FORM, invalidCodeOf, postedName, upstreamName } from '../../public-api/application-form.ts';
import { FIELD_PROBLEMS } from '../../public-api/problems.ts';
import type { FieldCode } from '../../public-api/problems.ts';
import type { FieldProblem } from '../http/problem.ts';

/** Form field of each field of the API (upstream error paths → form names), from the form's table. */
const FORM_FIELD_OF: Record<string, string> = {
  ...Object.fromEntries(APPLICATION_FORM.map((field) => [upstreamName(field), postedName(field)])),
  applicant_email: 'email',
  locale: 'locale',
  campaign_id: 'campaign_id',
};

/**
 * "applicant.applications.0.comments.0.content" → "cover_letter";
 * "applicant.resume.base64" → "resume". The first segment that names a form
 * field wins; an unknown path is reported on the whole form ("form").
 */
export function formFieldOf(path: string): string {
  for (const segment of path.split('.')) {
    const field = FORM_FIELD_OF[segment];
    if (field !== undefined && segment !== 'campaign_id') return field;
  }
  return path.split('.').includes('campaign_id') ? 'campaign_id' : 'form';
}

export function fieldProblems(error: ApiError): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const detail of error.details) {
    const field = formFieldOf(detail.field);
    if (seen.has(field)) continue;
    seen.add(field);
    let code: FieldCode = invalidCodeOf(field);
    if (error.code === 'file_too_large') code = 'file_too_large';
    if (/too long|at most|too_big/i.test(detail.message) && field !== 'resume') code = 'too_long';
    // Our own words, never the service's: its messages are part of its error body, which no browser sees.
    problems.push({ field, code, message: `The recruitment service refused this value. ${FIELD_PROBLEMS[code]}` });
  }
  if (problems.length === 0) {
    const field =
      error.code === 'file_too_large' || error.code === 'unsupported_media_type' || error.code === 'file_type_mismatch'
        ? 'resume'
        : 'form';
    const code: FieldCode =
      error.code === 'file_too_large'
        ? 'file_too_large'
        : field === 'resume'
          ? 'unsupported_file_type'
          : 'invalid_value';
    problems.push({ field, code, message: 'The recruitment service refused this application.' });
  }
  return problems;
}
