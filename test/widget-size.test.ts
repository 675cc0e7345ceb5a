// Size budget of the script-tag bundle: every kilobyte is paid by every
// visitor of the board. Reads the built files, so `npm run build` runs first
// (`npm test` does it before `npm run test:node`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { COMPILE_HINT } from '../vite.config.ts';
import {
  alertBudget,
  applyBudget,
  languageBudget,
  mainBudget,
  photosBudget,
  quickApplyBudget,
  savedOffersBudget,
  spontaneousBudget,
} from './widget-budgets.ts';

const dir = new URL('../dist/widget/', import.meta.url);

async function built(name: string): Promise<string> {
  try {
    return await readFile(new URL(name, dir), 'utf8');
  } catch {
    throw new Error(`dist/widget/${name} is missing: run \`npm run build\` first.`);
  }
}

/** The modules beside widget.js, by what they hold: `apply`, `quick-apply`, `photos`, `saved`, `alert`, `spontaneous`, or a language. */
async function modules(): Promise<Map<string, string>> {
  const names = (await readdir(dir)).filter((n) => n !== 'widget.js' && !n.endsWith('.map'));
  return new Map(
    names.map((n) => [
      /^widget-([a-z]{2}|apply|quick-apply|photos|saved|alert|spontaneous)-[\w-]{8}\.js$/.exec(n)?.[1] ?? n,
      n,
    ]),
  );
}

const gzipped = async (name: string) => gzipSync(await built(name)).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

test(`the script-tag bundle, gzipped, is at most ${mainBudget / 1024} KB with Lit, its hydration support and the offers; ${languageBudget / 1024} KB with a language module; ${applyBudget / 1024} KB with the apply form's; ${quickApplyBudget / 1024} KB with quick apply's too; ${savedOffersBudget / 1024} KB with the saved offers'; ${spontaneousBudget / 1024} KB with the apply form's and spontaneous applications'`, async () => {
  const source = await built('widget.js');
  // What the budget is measured with is in the file measured: Lit's three parts (each registers its version), and no import left to load.
  for (const part of ['reactiveElementVersions', 'litHtmlVersions', 'litElementVersions', 'litElementHydrateSupport'])
    assert.ok(source.includes(part), `widget.js lacks ${part}`);
  assert.ok(source.includes('Back to offers'), 'widget.js lacks the English texts of the offers');
  assert.doesNotMatch(source, /\bimport\s*[^(]*?from\s*["'`]/, 'widget.js imports another module');
  const main = gzipSync(source).length;
  assert.ok(main <= mainBudget, `widget.js is ${kb(main)} gzipped, over the ${kb(mainBudget)} budget`);
  const found = await modules();
  for (const [name, file] of found) {
    // Loaded when photos are chosen only: its own budget below.
    if (name === 'photos') continue;
    // Quick apply's module loads with the form's, and so does that of spontaneous applications, on a board taking some.
    const withForm = name === 'quick-apply' || name === 'spontaneous' ? await gzipped(found.get('apply')!) : 0;
    const total = main + withForm + (await gzipped(file));
    const budgets: Record<string, number> = {
      apply: applyBudget,
      'quick-apply': quickApplyBudget,
      spontaneous: spontaneousBudget,
      saved: savedOffersBudget,
      alert: alertBudget,
    };
    const budget = budgets[name] ?? languageBudget;
    assert.ok(
      total <= budget,
      `widget.js with the ${name} module is ${kb(total)} gzipped, over the ${kb(budget)} budget`,
    );
  }
});

test(`the photos' module, gzipped, is at most ${photosBudget / 1024} KB`, async () => {
  const photos = await gzipped((await modules()).get('photos')!);
  assert.ok(photos <= photosBudget, `the photos' module is ${kb(photos)} gzipped, over the ${kb(photosBudget)} budget`);
});

test("besides widget.js there is the apply form's module, quick apply's, the photos' and spontaneous applications' that it imports, the saved offers', the alert panel's, and one per other language, which import nothing but widget.js", async () => {
  const found = await modules();
  assert.deepEqual([...found.keys()].sort(), [
    'alert',
    'apply',
    'es',
    'fr',
    'photos',
    'quick-apply',
    'saved',
    'spontaneous',
  ]);
  const main = await built('widget.js');
  assert.doesNotMatch(main, /\bimport\s*[^(]*?from\s*["'`]/, 'widget.js must not import other modules statically');
  const apply = await built(found.get('apply')!);
  for (const [key, name] of found) {
    const importer = ['photos', 'quick-apply', 'spontaneous'].includes(key) ? apply : main;
    assert.ok(
      importer.includes(`import(\`./${name}\`)`),
      `${importer === apply ? 'the apply module' : 'widget.js'} does not import ${name}`,
    );
    const imports = [...(await built(name)).matchAll(/\bfrom\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(imports)], ['./widget.js'], `${name} imports ${imports.join(', ')}`);
  }
});

test("the bundle defines both elements and carries Lit's hydration support; the apply form's module its English texts; each language module its language", async () => {
  const main = await built('widget.js');
  assert.match(main, /jobboard-campaigns/);
  assert.match(main, /jobboard-apply/);
  assert.match(main, /litElementHydrateSupport/);
  const found = await modules();
  assert.ok((await built(found.get('apply')!)).includes('Send my application'), 'missing "Send my application"');
  assert.ok((await built(found.get('saved')!)).includes('My saved offers'), 'missing "My saved offers"');
  assert.ok((await built(found.get('fr')!)).includes('Envoyer ma candidature'), 'missing "Envoyer ma candidature"');
  assert.ok((await built(found.get('es')!)).includes('Enviar mi candidatura'), 'missing "Enviar mi candidatura"');
});

test("the apply form's module opens with the hint that has Chromium compile all its functions at once; widget.js does not", async () => {
  assert.ok(
    (await built((await modules()).get('apply')!)).startsWith(`${COMPILE_HINT}\n`),
    `the apply form's module does not open with ${COMPILE_HINT}`,
  );
  assert.ok(!(await built('widget.js')).includes(COMPILE_HINT), `widget.js has ${COMPILE_HINT}`);
});
