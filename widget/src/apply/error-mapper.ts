// Turns a failed submission into what the form shows: messages on fields, a
// summary banner, or the "already applied" outcome.
import { AbortedError, NetworkError, ProblemError } from '../internal/api.ts';
import { fieldMessage } from '../internal/messages.ts';
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
 * @param shown whether the form shows a control (a hidden field cannot carry its message)
 * @param resumeLimit the resume size limit, written for the candidate
 */
export function mapFailure(
  error: unknown,
  current: Record<string, string>,
  shown: (id: string) => boolean,
  resumeLimit: string | undefined,
): MappedFailure {
  if (error instanceof AbortedError) return { code: 'upload_cancelled', retry: false };
  if (error instanceof NetworkError) return { code: 'network_error', retry: true };
  if (!(error instanceof ProblemError)) return { code: 'internal_error' };
  const { code, errors: problems } = error;
  if (code === 'already_applied') return { code, alreadyApplied: true, forgetKey: true };
  if (code === 'idempotency_key_in_progress' || code === 'upload_too_slow') return { code, retry: true };
  if (code === 'file_too_large' || code === 'unsupported_file_type') {
    return { code, errors: { ...current, resume: fieldMessage(code, resumeLimit) } };
  }
  if (problems?.length) {
    const errors: Record<string, string> = {};
    for (const problem of problems) {
      const id = controlOf.get(problem.field) ?? problem.field;
      if (shown(id)) errors[id] = fieldMessage(problem.code);
    }
    // A problem on a field this form does not show still needs saying.
    return Object.keys(errors).length < problems.length ? { code, errors, retry: false } : { code, errors };
  }
  return { code, retry: false, forgetKey: code === 'idempotency_key_reused' };
}
