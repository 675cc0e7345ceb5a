// The CSV cells of GET /api/stats: RFC 4180's quoting, and text a
// spreadsheet would run as a formula kept as text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvCell } from './stats-csv.ts';

describe('a CSV cell of the stats', () => {
  it('writes numbers and plain text as they are', () => {
    assert.equal(csvCell(42), '42');
    assert.equal(csvCell('Night nurse'), 'Night nurse');
    assert.equal(csvCell(''), '');
  });

  it('quotes text holding a comma, a quote or a line break, its quotes doubled', () => {
    assert.equal(csvCell('Nurse, nights'), '"Nurse, nights"');
    assert.equal(csvCell('The "best" job'), '"The ""best"" job"');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('two\r\nlines'), '"two\r\nlines"');
  });

  it('puts an apostrophe before text a spreadsheet would take for a formula (= + - @, a tab or a carriage return first)', () => {
    for (const formula of ['=1+1', '+33 1 23', '-2', '@SUM(A1)', '\t=cmd', '\r=cmd'])
      assert.equal(csvCell(formula).replace(/^"/, '').slice(0, 1), "'", JSON.stringify(formula));
    assert.equal(csvCell('=HYPERLINK("x","y")'), `"'=HYPERLINK(""x"",""y"")"`);
    assert.equal(csvCell('Nurse = carer'), 'Nurse = carer', 'only the first character counts');
  });
});
