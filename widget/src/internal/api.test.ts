// The widget's errors of the proxy's API: each names itself (a minifier
// renames the classes), and a problem holds what the proxy's ProblemError
// holds, under the same names.
import { expect } from '@open-wc/testing';
import { AbortedError, NetworkError, ProblemError } from './api.ts';

describe('the API errors', () => {
  it('name themselves, whatever the bundle calls their classes', () => {
    const errors = [
      new NetworkError('offline'),
      new AbortedError('cancelled'),
      new ProblemError({ status: 404, code: 'campaign_not_found' }),
    ];
    expect(errors.map((e) => e.name)).to.deep.equal(['NetworkError', 'AbortedError', 'ProblemError']);
    expect(String(errors[0])).to.equal('NetworkError: offline');
  });

  it("hold a problem's status, code and field problems as the proxy's ProblemError does", () => {
    const errors = [{ field: 'email', code: 'invalid_email' as const, message: 'Enter a valid email address.' }];
    const problem = new ProblemError({ status: 422, code: 'validation_failed', errors });
    expect([problem.status, problem.code, problem.errors]).to.deep.equal([422, 'validation_failed', errors]);
    expect(new ProblemError({ status: 502, code: 'internal_error' }).errors).to.equal(undefined);
  });
});
