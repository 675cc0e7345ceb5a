// Turns a failed submission into what the form shows: messages on fields, a
// summary banner, or the "already applied" outcome.
import { AbortedError, NetworkError, ProblemError } from '../internal/api.ts';
import { fieldMessage } from '../internal/localize.ts';
import { controls } from './fields.ts';

export interface Banner {
  code: string;
  retry: boolean;
}

export interface MappedFailure {
  /** The code of the jobboard-apply-error event. */
  code: string;
  alreadyApplied: boolean;
  banner: Banner | null;
  /** The field messages to show instead of the current ones (unchanged when absent). */
  errors?: Record<string, string>;
  /** The idempotency key must not be sent again. */
  forgetKey: boolean;
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
  const failure = (code: string, banner: Banner | null, extra: Partial<MappedFailure> = {}): MappedFailure => ({
    code,
    alreadyApplied: false,
    banner,
    forgetKey: false,
    ...extra,
  });
  if (error instanceof AbortedError) return failure('upload_cancelled', { code: 'upload_cancelled', retry: false });
  if (error instanceof NetworkError) return failure('network_error', { code: 'network_error', retry: true });
  if (!(error instanceof ProblemError)) return failure('internal_error', null);
  const { code, errors: problems } = error.problem;
  if (code === 'already_applied') return failure(code, null, { alreadyApplied: true, forgetKey: true });
  if (code === 'idempotency_key_in_progress') return failure(code, { code, retry: true });
  if (code === 'file_too_large' || code === 'unsupported_file_type') {
    return failure(code, null, { errors: { ...current, resume: fieldMessage(code, resumeLimit) } });
  }
  if (problems?.length) {
    const errors: Record<string, string> = {};
    for (const problem of problems) {
      const id = controlOf.get(problem.field) ?? problem.field;
      if (shown(id)) errors[id] = fieldMessage(problem.code);
    }
    // A problem on a field this form does not show still needs saying.
    const banner = Object.keys(errors).length < problems.length ? { code, retry: false } : null;
    return failure(code, banner, { errors });
  }
  return failure(code, { code, retry: false }, { forgetKey: code === 'idempotency_key_reused' });
}
