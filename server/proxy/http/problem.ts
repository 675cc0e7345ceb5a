// problem+json (RFC 9457) answers. Handlers throw ProblemError; the error
// middleware of the app is the one place that turns it into a response, so
// no upstream error body or stack ever reaches a browser.
import { PROBLEMS } from '../../public-api/problems.ts';
import type { ProblemCode } from '../../public-api/problems.ts';
import type { FieldProblem, Problem, ProblemBody } from '../../public-api/schemas.ts';

export type { FieldProblem, ProblemBody };

export const PROBLEM_TYPE_BASE = 'https://jobboard-connector.dev/problems/';

export class ProblemError extends Error implements Problem {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldProblem[] | undefined;
  readonly headers: Record<string, string>;

  /** Status and title come from the catalogue of problem codes; `detail` says what to do. */
  constructor(
    code: ProblemCode,
    detail: string,
    options: { errors?: FieldProblem[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(`${code}: ${detail}`, { cause: options.cause });
    this.name = 'ProblemError';
    this.status = PROBLEMS[code].status;
    this.code = code;
    this.title = PROBLEMS[code].title;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  toBody(): ProblemBody {
    return {
      type: PROBLEM_TYPE_BASE + this.code,
      title: this.title,
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

export function validationProblem(errors: FieldProblem[]): ProblemError {
  return new ProblemError('validation_failed', 'Correct the fields listed in errors and send the form again.', {
    errors,
  });
}
