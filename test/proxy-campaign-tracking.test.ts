// Campaign tracking over real HTTP against the sandbox: the utm_* posted with
// the apply form are checked (a bad one is dropped, logged and counted, and
// the application goes on), kept with the application and told to the
// company in a comment; with TRACK_UTM=false the proxy ignores them and tells
// the widget not to collect them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  apply,
  applyWorldPerSuite,
  deliveredRow,
  fetch,
  validFields,
  BOARD_ORIGIN,
} from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';

function commentsOf(world: ApplyWorld, applicationId: number): string[] {
  return world.sandbox.context.db
    .all<{ content: string }>('SELECT content FROM comments WHERE application_id = ? ORDER BY id', applicationId)
    .map((c) => c.content);
}

async function trackUtm(world: ApplyWorld): Promise<unknown> {
  const response = await fetch(`${world.proxyUrl}/api/config`, { headers: { origin: BOARD_ORIGIN } });
  return ((await response.json()) as { track_utm: unknown }).track_utm;
}

/** Applies to the first open offer with `utm` beside a valid form: the application is delivered (201); answers its row. */
async function deliveredWith(world: ApplyWorld, utm: Record<string, string>) {
  const answer = await apply(world.proxyUrl, { fields: { ...validFields(world.openCampaignIds[0]!), ...utm } });
  assert.equal(answer.status, 201, answer.text);
  return deliveredRow(world, answer.body.reference);
}

describe('campaign tracking (TRACK_UTM unset: on)', () => {
  const world = applyWorldPerSuite();

  it('tells the widget to collect them', async () => {
    assert.equal(await trackUtm(world()), true);
  });

  it('keeps the utm_* posted with the application and adds them to the comment the company reads', async () => {
    const row = await deliveredWith(world(), {
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'printemps – café',
    });
    assert.deepEqual(row.utm, { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'printemps – café' });
    assert.deepEqual(commentsOf(world(), row.upstream_application_id!), [
      validFields(0).cover_letter,
      'Came from: utm_source="newsletter", utm_medium="email", utm_campaign="printemps – café"',
    ]);
  });

  it('without any, sends only the cover letter, and keeps none', async () => {
    const fields = validFields(world().openCampaignIds[0]!);
    const row = await deliveredRow(world(), (await apply(world().proxyUrl, { fields })).body.reference);
    assert.equal(row.utm, null);
    assert.deepEqual(commentsOf(world(), row.upstream_application_id!), [fields.cover_letter]);
  });

  it('takes the application without a value over 200 characters or holding control characters, logs and counts each dropped one, and quotes the rest to the company', async () => {
    const row = await deliveredWith(world(), {
      utm_term: 'x'.repeat(201),
      utm_content: 'line\nfeed',
      utm_medium: 'bidi\u202eevil',
      utm_campaign: 'x, utm_medium=spoofed',
    });
    assert.deepEqual(row.utm, { utm_campaign: 'x, utm_medium=spoofed' });
    assert.deepEqual(commentsOf(world(), row.upstream_application_id!), [
      validFields(0).cover_letter,
      'Came from: utm_campaign="x, utm_medium=spoofed"',
    ]);
    const logged = world().logs.lines.filter((line) => line.event === 'utm_dropped');
    assert.deepEqual(
      logged.map((line) => [line.level, line.fields]),
      [[40, ['utm_medium: not_printable', 'utm_term: too_long', 'utm_content: not_printable']]],
    );
    assert.doesNotMatch(JSON.stringify(logged), /xxxx|feed|evil/, 'the values are not logged');
    const metrics = await (await fetch(world().metricsUrl)).text();
    for (const field of ['utm_medium', 'utm_term', 'utm_content'])
      assert.match(metrics, new RegExp(`^applications_utm_dropped_total\\{field="${field}"\\} 1$`, 'm'));
    assert.doesNotMatch(metrics, /applications_utm_dropped_total\{field="utm_campaign"\}/);
  });
});

describe('campaign tracking off (TRACK_UTM=false)', () => {
  const world = applyWorldPerSuite({ env: { TRACK_UTM: 'false' } });

  it('tells the widget not to collect them', async () => {
    assert.equal(await trackUtm(world()), false);
  });

  it('ignores the utm_* posted, even bad ones: nothing kept, nothing in the comment', async () => {
    const row = await deliveredWith(world(), { utm_source: 'newsletter', utm_content: 'bad\u0000value' });
    assert.equal(row.utm, null);
    assert.deepEqual(commentsOf(world(), row.upstream_application_id!), [validFields(0).cover_letter]);
  });
});
