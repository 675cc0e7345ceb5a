// The per-field codes, listed once: each with a sentence of its own, and the
// public API document naming each of them and no other.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { FIELD_CODES, FIELD_PROBLEMS } from './problems.ts';

const PUBLIC_API_DOC = new URL('README.md', import.meta.url);

describe('the per-field codes', () => {
  it('each have an English sentence of their own', () => {
    const sentences = Object.values(FIELD_PROBLEMS);
    for (const sentence of sentences) assert.match(sentence, /^[A-Z].{10,}\.$/);
    assert.equal(new Set(sentences).size, sentences.length);
  });

  it('are the ones the public API document lists, every one and no other', () => {
    const listed = /Per-field error `code`s:([^.]*)\./.exec(readFileSync(PUBLIC_API_DOC, 'utf8'))?.[1];
    assert.ok(listed !== undefined, 'the document has a "Per-field error `code`s:" sentence');
    assert.deepEqual([...listed.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort(), [...FIELD_CODES].sort());
  });
});
