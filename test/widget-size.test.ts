// Size budget of the script-tag bundle: every kilobyte is paid by every
// visitor of the board. Reads the built files, so `npm run build` runs first
// (`npm test` does it before `npm run test:node`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

/**
 * widget.js alone: what a page in English loads. 23.3 KB since the place and
 * salary filters (0.4 KB), the head tags of a shared link (0.5 KB), the
 * campaign parameters kept for the form and the receipt link (0.25 KB).
 */
const mainBudget = 23.3 * 1024;
/** widget.js with a language module: what a page in French or Spanish loads (25.6 KB since the additions above and their translations). */
const budget = 25.6 * 1024;
const dir = new URL('../dist/widget/', import.meta.url);

async function built(name: string): Promise<string> {
  try {
    return await readFile(new URL(name, dir), 'utf8');
  } catch {
    throw new Error(`dist/widget/${name} is missing: run \`npm run build\` first.`);
  }
}

/** The language modules beside widget.js, by language. */
async function languageModules(): Promise<Map<string, string>> {
  const names = (await readdir(dir)).filter((n) => n !== 'widget.js');
  return new Map(names.map((n) => [/^widget-([a-z]{2})-[\w-]{8}\.js$/.exec(n)?.[1] ?? n, n]));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

test(`the script-tag bundle, gzipped, is at most ${mainBudget / 1024} KB with Lit, its hydration support and the English texts; ${budget / 1024} KB with a language module`, async () => {
  const source = await built('widget.js');
  // What the budget is measured with is in the file measured: Lit's three parts (each registers its version), and no import left to load.
  for (const part of ['reactiveElementVersions', 'litHtmlVersions', 'litElementVersions', 'litElementHydrateSupport']) assert.ok(source.includes(part), `widget.js lacks ${part}`);
  assert.ok(source.includes('Send my application'), 'widget.js lacks the English texts');
  assert.doesNotMatch(source, /\bimport\s*[^(]*?from\s*["'`]/, 'widget.js imports another module');
  const main = gzipSync(source).length;
  assert.ok(main <= mainBudget, `widget.js is ${kb(main)} gzipped, over the ${kb(mainBudget)} budget`);
  for (const [lang, name] of await languageModules()) {
    const total = main + gzipSync(await built(name)).length;
    assert.ok(total <= budget, `widget.js with the ${lang} module is ${kb(total)} gzipped, over the ${kb(budget)} budget`);
  }
});

test('besides widget.js there is one module per other language, which imports nothing but widget.js', async () => {
  const modules = await languageModules();
  assert.deepEqual([...modules.keys()].sort(), ['es', 'fr']);
  assert.doesNotMatch(await built('widget.js'), /\bimport\s*[^(]*?from\s*["'`]/, 'widget.js must not import other modules statically');
  for (const name of modules.values()) {
    const imports = [...(await built(name)).matchAll(/\bfrom\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(imports)], ['./widget.js'], `${name} imports ${imports.join(', ')}`);
  }
});

test('the bundle carries both elements, Lit\'s hydration support and the English texts; each module its language', async () => {
  const main = await built('widget.js');
  assert.match(main, /jobboard-campaigns/);
  assert.match(main, /jobboard-apply/);
  assert.match(main, /litElementHydrateSupport/);
  assert.ok(main.includes('Send my application'), 'missing "Send my application"');
  const modules = await languageModules();
  assert.ok((await built(modules.get('fr')!)).includes('Envoyer ma candidature'), 'missing "Envoyer ma candidature"');
  assert.ok((await built(modules.get('es')!)).includes('Enviar mi candidatura'), 'missing "Enviar mi candidatura"');
});
