// STATUS_LABELS, the board's words for the company's status values: the
// file's checks, each mistake's message (what is wrong, where, and how to
// write the file), and which label a receipt shows in which language. How
// the configuration names the variable is tested in config.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readStatusLabels, statusLabel } from './status-labels.ts';

const dir = mkdtempSync(join(tmpdir(), 'jbc-status-labels-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** A labels file holding `body`. */
function file(body: string): string {
  files += 1;
  const path = join(dir, `labels-${files}.json`);
  writeFileSync(path, body);
  return path;
}

const HOW =
  'write one object of status value → labels by language (fr, en, es), like {"interview": {"en": "Interview planned", "fr": "Entretien prévu"}}';

/** The message readStatusLabels throws for a file holding `body`. */
function mistake(body: string): string {
  const path = file(body);
  try {
    readStatusLabels(path);
  } catch (error) {
    return (error as Error).message.replace(path, 'FILE');
  }
  return assert.fail(`${body} was taken`);
}

describe('STATUS_LABELS', () => {
  it("reads each status value's labels by language, trimmed, some languages missing", () => {
    const labels = readStatusLabels(
      file(
        '{"interview": {"en": " Interview planned ", "fr": "Entretien prévu"}, "hired": {"es": "Contratado"}, "x": {}}',
      ),
    );
    assert.deepEqual(
      [...labels],
      [
        ['interview', { en: 'Interview planned', fr: 'Entretien prévu' }],
        ['hired', { es: 'Contratado' }],
        ['x', {}],
      ],
    );
  });

  it('takes a label of 200 characters, and names the status and language of a longer one', () => {
    const long = 'a'.repeat(200);
    assert.equal(readStatusLabels(file(`{"hired": {"en": "${long}"}}`)).get('hired')?.en, long);
    assert.equal(mistake(`{"hired": {"en": "${long}a"}}`), `FILE: "hired".en must be at most 200 characters; ${HOW}`);
  });

  it('names what is wrong, where, and how to write the file', () => {
    assert.equal(mistake('{"hired": {"fr": " "}}'), `FILE: "hired".fr must not be empty; ${HOW}`);
    assert.equal(mistake('{"hired": {"fr": 3}}'), `FILE: "hired".fr must be a text; ${HOW}`);
    assert.equal(mistake('{"hired": "Hired"}'), `FILE: "hired" must be an object of labels by language; ${HOW}`);
    assert.equal(
      mistake('{"hired": {"de": "Eingestellt", "it": "Assunto"}}'),
      `FILE: "hired" has a language this proxy does not know (de, it); known: fr, en, es; ${HOW}`,
    );
    assert.equal(
      mistake('{"": {"en": "Empty"}}'),
      `FILE: "" is not a status value: a status value must not be empty; ${HOW}`,
    );
    assert.equal(mistake('["hired"]'), `FILE: the file must be one JSON object; ${HOW}`);
  });

  it('says a file it cannot read as JSON, with why, and how to write it', () => {
    const broken = mistake('{"hired": ');
    assert.match(
      broken,
      /^cannot read FILE as JSON \(.+\); write one object of status value → labels by language, like \{"interview"/,
    );
    assert.throws(
      () => readStatusLabels(join(dir, 'nowhere.json')),
      (error: Error) => /ENOENT/.test(error.message) && (error.cause as { code?: string }).code === 'ENOENT',
    );
  });

  it("gives a status's label in the page's language, else English, else none; and none for a status the board does not map", () => {
    const labels = readStatusLabels(
      file('{"interview": {"en": "Interview planned", "fr": "Entretien prévu"}, "hired": {"es": "Contratado"}}'),
    );
    assert.equal(statusLabel(labels, 'interview', 'fr'), 'Entretien prévu');
    assert.equal(statusLabel(labels, 'interview', 'es'), 'Interview planned');
    assert.equal(statusLabel(labels, 'hired', 'es'), 'Contratado');
    assert.equal(statusLabel(labels, 'hired', 'fr'), undefined, 'no French label, no English one');
    assert.equal(statusLabel(labels, 'refused', 'en'), undefined);
    assert.equal(statusLabel(labels, null, 'en'), undefined, 'no status known yet');
  });
});
