// ALERTS: feed by default; webhook only with the webhook it is sent through
// and the board's offer pages its feed links to, else a start-up error that
// says what to set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadProxyConfig } from '../config.ts';
import { REQUIRED_ENV, configProblems } from '../config.test-support.ts';
import { configAnswer } from '../widget-serving/config.ts';

const WEBHOOK = {
  WEBHOOK_URL: 'https://board.example/hooks',
  WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
};
const BOARD_OFFER_URL = 'https://jobs.acme.example/offers?offer={id}';

describe('ALERTS', () => {
  it('is feed by default: /api/config offers the feed (with BOARD_OFFER_URL), not the email hand-off', () => {
    assert.deepEqual(configAnswer(loadProxyConfig(REQUIRED_ENV)).alerts, { feed: false, email: false });
    const config = loadProxyConfig({ ...REQUIRED_ENV, BOARD_OFFER_URL });
    assert.equal(config.alerts, 'feed');
    assert.deepEqual(configAnswer(config).alerts, { feed: true, email: false });
  });

  it('takes webhook with WEBHOOK_URL and BOARD_OFFER_URL: /api/config offers the hand-off', () => {
    const config = loadProxyConfig({ ...REQUIRED_ENV, ...WEBHOOK, BOARD_OFFER_URL, ALERTS: 'webhook' });
    assert.equal(config.alerts, 'webhook');
    assert.deepEqual(configAnswer(config).alerts, { feed: true, email: true });
  });

  it('refuses to start with webhook but no WEBHOOK_URL, or no BOARD_OFFER_URL, saying what to set', () => {
    assert.deepEqual(configProblems({ ALERTS: 'webhook', BOARD_OFFER_URL }), [
      "ALERTS is webhook, which hands each alert to the board's mailing as a signed alert.requested event: set WEBHOOK_URL (and WEBHOOK_SECRET) to the board's receiver, or set ALERTS=feed",
    ]);
    assert.match(
      configProblems({ ALERTS: 'webhook', ...WEBHOOK }).join('\n'),
      /^ALERTS is webhook, .*set BOARD_OFFER_URL/,
    );
    assert.deepEqual(configProblems({ ALERTS: 'email' }), ['ALERTS must be one of: feed, webhook']);
  });
});
