import { expect } from '@open-wc/testing';
import { ProblemError } from './api.ts';
import { Loader } from './loader.ts';

/** A promise and the functions that settle it, for answers that come in the order a test chooses. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const host = { requestUpdate() {} };

describe('Loader', () => {
  it('when a newer load answers first, the older answer, coming last, is not shown and its load says so', async () => {
    const loader = new Loader<string>(host);
    const older = deferred<string>();
    const newer = deferred<string>();
    let olderSignal: AbortSignal | undefined;
    const first = loader.run((signal) => {
      olderSignal = signal;
      return older.promise;
    });
    const second = loader.run(() => newer.promise);
    expect(olderSignal?.aborted).to.equal(true);
    newer.resolve('page 2');
    expect(await second).to.equal(true);
    older.resolve('page 1');
    expect(await first).to.equal(false);
    expect([loader.status, loader.value]).to.deep.equal(['ready', 'page 2']);
  });

  it("tells a refusal of the page's origin and a closed or unknown offer from other failures", async () => {
    const loader = new Loader<string>(host);
    const outcomes = [];
    for (const error of [
      new ProblemError({ status: 403, code: 'origin_not_allowed' }),
      new ProblemError({ status: 404, code: 'campaign_not_found' }),
      new ProblemError({ status: 503, code: 'not_ready' }),
      new TypeError('Failed to fetch'),
    ]) {
      await loader.run(() => Promise.reject(error));
      outcomes.push(loader.status);
    }
    expect(outcomes).to.deep.equal(['refused', 'gone', 'error', 'error']);
  });

  it('keeps the last value while the next loads, and drops a load under way when a value is shown instead', async () => {
    const loader = new Loader<string>(host);
    await loader.run(() => Promise.resolve('page 1'));
    const pending = deferred<string>();
    const load = loader.run(() => pending.promise);
    expect([loader.status, loader.value]).to.deep.equal(['loading', 'page 1']);
    loader.show(null);
    pending.resolve('page 2');
    expect(await load).to.equal(false);
    expect([loader.status, loader.value]).to.deep.equal(['idle', null]);
  });
});
