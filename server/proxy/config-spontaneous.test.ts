// SPONTANEOUS_APPLICATIONS: which companies take applications with no offer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadProxyConfig } from './config.ts';
import { REQUIRED_ENV, configProblems } from './config.test-support.ts';
import { takesAnySpontaneous, takesSpontaneous } from '../public-api/spontaneous-companies.ts';

const problemsOf = (value: string) => configProblems({ SPONTANEOUS_APPLICATIONS: value });

describe('SPONTANEOUS_APPLICATIONS', () => {
  it('is off when unset or empty: no company takes them', () => {
    for (const env of [
      REQUIRED_ENV,
      { ...REQUIRED_ENV, SPONTANEOUS_APPLICATIONS: '' },
      { ...REQUIRED_ENV, SPONTANEOUS_APPLICATIONS: '  ' },
    ]) {
      const { spontaneousApplications } = loadProxyConfig(env);
      assert.deepEqual(spontaneousApplications, []);
      assert.equal(takesSpontaneous(spontaneousApplications, 12), false);
      assert.equal(takesAnySpontaneous(spontaneousApplications), false);
    }
  });

  it('takes company ids separated by commas (spaces and repeats ignored), and only those companies', () => {
    const { spontaneousApplications } = loadProxyConfig({ ...REQUIRED_ENV, SPONTANEOUS_APPLICATIONS: ' 12, 34 ,12' });
    assert.deepEqual(spontaneousApplications, [12, 34]);
    assert.equal(takesSpontaneous(spontaneousApplications, 34), true);
    assert.equal(takesSpontaneous(spontaneousApplications, 56), false);
    assert.equal(takesAnySpontaneous(spontaneousApplications), true);
  });

  it('takes all (any case) for every company of the catalogue', () => {
    for (const value of ['all', 'ALL', ' All ']) {
      const { spontaneousApplications } = loadProxyConfig({ ...REQUIRED_ENV, SPONTANEOUS_APPLICATIONS: value });
      assert.equal(spontaneousApplications, 'all', value);
      assert.equal(takesSpontaneous(spontaneousApplications, 987), true);
      assert.equal(takesAnySpontaneous(spontaneousApplications), true);
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
      loadProxyConfig({ ...REQUIRED_ENV, SPONTANEOUS_APPLICATION: 'all' });
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
