import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { versionCache } from './version-cache.ts';

describe('version cache', () => {
  it('keeps an answer until the version changes, at most max of them, the oldest let go first', () => {
    let version = 1;
    let builds = 0;
    const cached = versionCache<number>(() => version, 2);
    const build = () => ++builds;
    assert.equal(cached('a', build), 1);
    assert.equal(cached('a', build), 1, 'from the cache');
    cached('b', build);
    cached('c', build);
    assert.equal(cached('a', build), 4, 'let go past two');
    version = 2;
    assert.equal(cached('c', build), 5, 'built anew at the new version');
  });

  it('shares an answer still being built, and forgets one that failed', async () => {
    const cached = versionCache<Promise<string>>(() => 1, 10);
    let builds = 0;
    const failing = () => {
      builds += 1;
      return Promise.reject(new Error('the search thread stopped'));
    };
    const first = cached('q', failing);
    assert.equal(cached('q', failing), first, 'the same promise while it is pending');
    await assert.rejects(first, /stopped/);
    const again = cached('q', async () => 'found');
    assert.equal(await again, 'found', 'a failed answer is built again, not served');
    assert.equal(builds, 1);
  });
});
