import { expect } from '@open-wc/testing';
import type { FieldCode } from '../../../server/public-api/problems.ts';
import { AbortedError, NetworkError, ProblemError } from '../internal/api.ts';
import { fieldMessage } from '../internal/messages.ts';
import { mapFailure } from './error-mapper.ts';

const everyControl = () => true;

function validation(...errors: { field: string; code: FieldCode }[]): ProblemError {
  return new ProblemError({
    status: 422,
    code: 'validation_failed',
    errors: errors.map((e) => ({ ...e, message: '' })),
  });
}

describe('mapFailure', () => {
  it('puts a field problem on the control that shows it: consent for is_legals_accepted_by_manager, the number for phone', () => {
    const failure = mapFailure(
      validation(
        { field: 'is_legals_accepted_by_manager', code: 'consent_required' },
        { field: 'phone', code: 'invalid_phone' },
      ),
      {},
      everyControl,
      undefined,
    );
    expect(failure).to.deep.equal({
      code: 'validation_failed',
      errors: { consent: fieldMessage('consent_required'), phone_number: fieldMessage('invalid_phone') },
    });
  });

  it('says a problem on a field the form does not show in a banner, without a retry', () => {
    const failure = mapFailure(
      validation({ field: 'bio_url', code: 'invalid_url' }),
      {},
      (id) => id !== 'bio_url',
      undefined,
    );
    expect(failure).to.deep.equal({ code: 'validation_failed', errors: {}, retry: false });
  });

  it('offers a retry after a network error, not after a cancel', () => {
    expect(mapFailure(new NetworkError('offline'), {}, everyControl, undefined)).to.deep.equal({
      code: 'network_error',
      retry: true,
    });
    expect(mapFailure(new AbortedError('cancelled'), {}, everyControl, undefined)).to.deep.equal({
      code: 'upload_cancelled',
      retry: false,
    });
  });

  it('offers a retry, with the same key, after an upload cut for coming too slowly', () => {
    expect(
      mapFailure(new ProblemError({ status: 408, code: 'upload_too_slow' }), {}, everyControl, undefined),
    ).to.deep.equal({ code: 'upload_too_slow', retry: true });
  });

  it('keeps the other field messages when the resume is refused, and says its limit', () => {
    const failure = mapFailure(
      new ProblemError({ status: 413, code: 'file_too_large' }),
      { email: 'x' },
      everyControl,
      '2 KB',
    );
    expect(failure.errors).to.deep.equal({ email: 'x', resume: fieldMessage('file_too_large', '2 KB') });
  });

  it('forgets the idempotency key after already_applied and idempotency_key_reused', () => {
    const problem = (code: string) => new ProblemError({ status: 409, code });
    expect(mapFailure(problem('already_applied'), {}, everyControl, undefined)).to.include({
      alreadyApplied: true,
      forgetKey: true,
    });
    expect(mapFailure(problem('idempotency_key_reused'), {}, everyControl, undefined)).to.include({
      forgetKey: true,
      retry: false,
    });
  });
});
