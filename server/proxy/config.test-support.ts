// What the configuration's tests share: the smallest environment the proxy
// starts with, and the problems a start with more variables would stop on.
import assert from 'node:assert/strict';
import { ConfigError, loadProxyConfig } from './config.ts';

/** The variables the proxy cannot start without, and nothing else. */
export const REQUIRED_ENV = {
  UPSTREAM_URL: 'https://api.example/v2/',
  UPSTREAM_PRIVATE_KEY: 'private',
  UPSTREAM_SECRET_KEY: 'secret',
  JOBBOARD_CHANNEL: 'jobboard_acme',
};

/** The problems ConfigError lists for the required variables and `env`; fails when the configuration is accepted. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadProxyConfig({ ...REQUIRED_ENV, ...env });
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail(`the configuration was accepted: ${JSON.stringify(env)}`);
}
