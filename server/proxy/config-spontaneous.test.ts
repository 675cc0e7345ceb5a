// SPONTANEOUS_APPLICATIONS: which companies take applications with no offer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadProxyConfig } from './config.ts';
import { takesSpontaneous } from './config-values.ts';

const REQUIRED = {
  UPSTREAM_URL: 'https://api.example/v2/',
  UPSTREAM_PRIVATE_KEY: 'private',
  UPSTREAM_SECRET_KEY: 'secret',
  JOBBOARD_CHANNEL: 'jobboard_acme',
};

function problemsOf(value: string): string[] {
  try {
    loadProxyConfig({ ...REQUIRED, SPONTANEOUS_APPLICATIONS: value });
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail(`${value} was accepted`);
}

describe('SPONTANEOUS_APPLICATIONS', () => {
  it('is off when unset or empty: no company takes them', () => {
    for (const env of [
      REQUIRED,
      { ...REQUIRED, SPONTANEOUS_APPLICATIONS: '' },
      { ...REQUIRED, SPONTANEOUS_APPLICATIONS: '  ' },
    ]) {
      const { spontaneousApplications } = loadProxyConfig(env);
      assert.deepEqual(spontaneousApplications, []);
      assert.equal(takesSpontaneous(spontaneousApplications, 12), false);
    }
  });

  it('takes company ids separated by commas (spaces and repeats ignored), and only those companies', () => {
    const { spontaneousApplications } = loadProxyConfig({ ...REQUIRED, SPONTANEOUS_APPLICATIONS: ' 12, 34 ,12' });
    assert.deepEqual(spontaneousApplications, [12, 34]);
    assert.equal(takesSpontaneous(spontaneousApplications, 34), true);
    assert.equal(takesSpontaneous(spontaneousApplications, 56), false);
  });

  it('takes all (any case) for every company of the catalogue', () => {
    for (const value of ['all', 'ALL', ' All ']) {
      const { spontaneousApplications } = loadProxyConfig({ ...REQUIRED, SPONTANEOUS_APPLICATIONS: value });
      assert.equal(spontaneousApplications, 'all', value);
      assert.equal(takesSpontaneous(spontaneousApplications, 987), true);
    }
  });

  it('names each value that is no company id, with what to write instead', () => {
    assert.deepEqual(problemsOf('12,acme,0'), [
      'SPONTANEOUS_APPLICATIONS "acme" is not a company id; write all, or company ids separated by commas, like 12,34 (company ids), or all (every company of the catalogue); leave it unset for none',
      'SPONTANEOUS_APPLICATIONS "0" is not a company id; write all, or company ids separated by commas, like 12,34 (company ids), or all (every company of the catalogue); leave it unset for none',
    ]);
    for (const value of ['12,,34', '-3', '1.5', 'true', 'all,12']) assert.equal(problemsOf(value).length, 1, value);
  });

  it('is a known variable: a typo of it stops the start', () => {
    try {
      loadProxyConfig({ ...REQUIRED, SPONTANEOUS_APPLICATION: 'all' });
      assert.fail('the typo was accepted');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.match(
        error.problems.join('\n'),
        /SPONTANEOUS_APPLICATION is not a variable of the proxy; did you mean SPONTANEOUS_APPLICATIONS\?/,
      );
    }
  });
});
