// Turns a failed submission into what the form shows: messages on fields, a
// summary banner, or the "already applied" outcome.
import { AbortedError, NetworkError, ProblemError } from '../internal/api.ts';
import type { FieldProblem } from '../internal/api.ts';
import { fieldMessage, notRealFile } from '../internal/messages.ts';
import { controls } from './fields.ts';

export interface Banner {
  code: string;
  retry: boolean;
}

export interface MappedFailure {
  /** The code of the jobboard-apply-error event, and of the banner when there is one. */
  code: string;
  /** A banner says the code, with a "send again" button when true. */
  retry?: boolean;
  /** The field messages to show instead of the current ones. */
  errors?: Record<string, string>;
  alreadyApplied?: boolean;
  /** The idempotency key must not be sent again. */
  forgetKey?: boolean;
}

/** The control that shows a field the proxy names: by the name posted, or by its rule (`phone`). */
const controlOf = new Map<string, string>();
for (const control of controls) controlOf.set(control.rule, control.id);
for (const control of controls) controlOf.set(control.posted ?? control.id, control.id);

/**
 * The candidate's message for a field problem: a resume of a type its name
 * says (`named`, its extension) but whose bytes are not is "not a real PDF".
 */
function messageOf(problem: Pick<FieldProblem, 'code' | 'detected_type'>, limit?: string, named?: string): string {
  return problem.code === 'unsupported_file_type' && named
    ? notRealFile(named, problem.detected_type)
    : fieldMessage(problem.code, limit);
}

/**
 * @param shown whether the form shows a control (a hidden field cannot carry its message)
 * @param resumeLimit the resume size limit, written for the candidate
 * @param named the chosen resume's extension (PDF) when it is one of the accepted types
 */
export function mapFailure(
  error: unknown,
  current: Record<string, string>,
  shown: (id: string) => boolean,
  resumeLimit: string | undefined,
  named?: string,
): MappedFailure {
  if (error instanceof AbortedError) return { code: 'upload_cancelled', retry: false };
  if (error instanceof NetworkError) return { code: 'network_error', retry: true };
  if (!(error instanceof ProblemError)) return { code: 'internal_error' };
  const { code, errors: problems } = error;
  if (code === 'already_applied') return { code, alreadyApplied: true, forgetKey: true };
  if (code === 'idempotency_key_in_progress' || code === 'upload_too_slow') return { code, retry: true };
  if (code === 'file_too_large' || code === 'unsupported_file_type') {
    const problem = problems?.find((p) => p.field === 'resume') ?? { code };
    return { code, errors: { ...current, resume: messageOf(problem, resumeLimit, named) } };
  }
  if (problems?.length) {
    const errors: Record<string, string> = {};
    for (const problem of problems) {
      const id = controlOf.get(problem.field) ?? problem.field;
      if (shown(id)) errors[id] = messageOf(problem, resumeLimit, named);
    }
    // A problem on a field this form does not show still needs saying.
    return Object.keys(errors).length < problems.length ? { code, errors, retry: false } : { code, errors };
  }
  return { code, retry: false, forgetKey: code === 'idempotency_key_reused' };
}
