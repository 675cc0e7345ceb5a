// Size budget of the script-tag bundle: every kilobyte is paid by every
// visitor of the board. Reads the built file, so `npm run build` runs first
// (`npm test` does it before `npm run test:node`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

const budget = 25 * 1024;
const bundle = new URL('../dist/widget/widget.js', import.meta.url);

async function built(): Promise<string> {
  try {
    return await readFile(bundle, 'utf8');
  } catch {
    throw new Error('dist/widget/widget.js is missing: run `npm run build` first.');
  }
}

test('the script-tag bundle, gzipped, is at most 25 KB including Lit and all three locales', async () => {
  const code = await built();
  const gzipped = gzipSync(code).length;
  assert.ok(gzipped <= budget, `widget.js is ${(gzipped / 1024).toFixed(1)} KB gzipped, over the 25 KB budget`);
});

test('the bundle is self-contained: Lit is inside and nothing is imported at run time', async () => {
  const code = await built();
  assert.doesNotMatch(code, /\bimport\s*[^(]*?from\s*["'`]/, 'the bundle must not import other modules');
  assert.match(code, /jobboard-campaigns/);
  assert.match(code, /jobboard-apply/);
});

test('the bundle carries the English, French and Spanish texts', async () => {
  const code = await built();
  for (const text of ['Send my application', 'Envoyer ma candidature', 'Enviar mi candidatura']) {
    assert.ok(code.includes(text), `missing "${text}"`);
  }
});
