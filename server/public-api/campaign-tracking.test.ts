// The rule of a campaign parameter's value, which the widget and the proxy
// both apply: what is kept, what is dropped and why. How each applies it is
// tested beside each (widget/src/apply/campaign-tracking.test.ts,
// server/proxy/applications/form.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_UTM_CHARS, UTM_FIELDS, keepUtm, utmFaultOf } from './campaign-tracking.ts';

/** An emoji outside the Basic Multilingual Plane: one character, two UTF-16 units. */
const ASTRAL = '\u{1F600}';

describe('the rule of a utm_* value', () => {
  it('takes up to 200 characters, counted as a person counts them: an emoji outside the BMP is one', () => {
    assert.equal(MAX_UTM_CHARS, 200);
    assert.equal(utmFaultOf('x'.repeat(200)), null);
    assert.equal(utmFaultOf('x'.repeat(201)), 'too_long');
    // 200 emoji are 400 UTF-16 units: still 200 characters.
    assert.equal(utmFaultOf(ASTRAL.repeat(200)), null);
    assert.equal(utmFaultOf(`${ASTRAL.repeat(199)}x`), null);
    assert.equal(utmFaultOf(ASTRAL.repeat(201)), 'too_long');
  });

  it('takes printable text in any script, and no control, format or separator character', () => {
    for (const good of ['spring 2026 – café', 'été', '春のセール', `${ASTRAL} promo`, ''])
      assert.equal(utmFaultOf(good), null, JSON.stringify(good));
    for (const bad of [
      'a\u0000b',
      'a\nb',
      'tab\there',
      'a\u007fb',
      'a\u0085b',
      'a\u202eb',
      'a\u2066b',
      'a\u200bb',
      'a\u2028b',
      'a\u2029b',
    ]) {
      assert.equal(utmFaultOf(bad), 'not_printable', JSON.stringify(bad));
    }
  });

  it('says too long before not printable when a value is both', () => {
    assert.equal(utmFaultOf(`${'x'.repeat(200)}\n`), 'too_long');
  });
});

describe('keepUtm', () => {
  it('keeps each value that keeps to the rule, trimmed, leaves blank and absent ones out, and names each dropped one with why, in UTM_FIELDS order', () => {
    const read: Record<string, unknown> = {
      utm_content: 'line\nbreak',
      utm_term: 'x'.repeat(201),
      utm_campaign: '  spring  ',
      utm_medium: ' ',
      utm_source: ASTRAL.repeat(200),
    };
    assert.deepEqual(
      keepUtm((name) => read[name]),
      {
        utm: { utm_source: ASTRAL.repeat(200), utm_campaign: 'spring' },
        dropped: [
          { name: 'utm_term', fault: 'too_long' },
          { name: 'utm_content', fault: 'not_printable' },
        ],
      },
    );
  });

  it('reads each of UTM_FIELDS once, and takes anything but a string as absent (a session entry written by hand)', () => {
    const asked: string[] = [];
    const kept = keepUtm((name) => {
      asked.push(name);
      return name === 'utm_source' ? 42 : name === 'utm_medium' ? null : name === 'utm_term' ? { x: 1 } : undefined;
    });
    assert.deepEqual(asked, [...UTM_FIELDS]);
    assert.deepEqual(kept, { utm: {}, dropped: [] });
  });

  it('trims before it counts: 200 characters with spaces around are kept', () => {
    assert.deepEqual(keepUtm((name) => (name === 'utm_term' ? `  ${'y'.repeat(200)}  ` : undefined)).utm, {
      utm_term: 'y'.repeat(200),
    });
  });
});
