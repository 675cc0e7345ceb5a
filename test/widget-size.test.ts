// Size budget of the script-tag bundle: every kilobyte is paid by every
// visitor of the board. Reads the built files, so `npm run build` runs first
// (`npm test` does it before `npm run test:node`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { COMPILE_HINT } from '../vite.config.ts';

/**
 * widget.js alone: Lit, its hydration support, the offers (list, search and
 * filters, opened offer, head tags) and their English texts; what a visitor
 * waits for before the offers show. 20 KB since the apply form moved to a
 * module of its own (widget-apply-<hash>.js), which widget.js fetches at once.
 */
const mainBudget = 20 * 1024;
/** widget.js with a language module: the offers on a page in French or Spanish. */
const languageBudget = 22.5 * 1024;
/**
 * widget.js with the apply form's module: what a page with a form loads in
 * English. More than the two were as one file (23.2 KB): gzip compresses
 * each file alone, and the module names what it imports from widget.js.
 * 26.5 KB since widget.js carries a Trusted Types policy that hands out only
 * sanitised HTML (with a plain-text fallback), the guard of a pinned
 * widget.js without its import map, and the campaign parameters' rule.
 * 29.5 KB since the offers fit a phone (filters folded behind one button, an
 * "Apply" button by the offer's title and one kept at the bottom), the form
 * checks before sending what the proxy would refuse (the email's pattern, a
 * resume's first bytes) and says what a wrong file is, the list says why a
 * place is refused, the form keeps its draft's resume and, when the
 * candidate opts in, their details for the next offers (the controller's
 * part: loading, keeping and forgetting them), and the resume field offers
 * the camera for photos of a paper resume's pages (the control and the
 * pages' state; their scaling and thumbnails are in a module of their own,
 * loaded once photos are chosen).
 */
const applyBudget = 29.5 * 1024;
/**
 * widget.js, the apply form's module and quick apply's, which the form
 * loads beside its config: the "Remember me" box, the kept details' line
 * and the IndexedDB store.
 */
const quickApplyBudget = 31 * 1024;
const dir = new URL('../dist/widget/', import.meta.url);

async function built(name: string): Promise<string> {
  try {
    return await readFile(new URL(name, dir), 'utf8');
  } catch {
    throw new Error(`dist/widget/${name} is missing: run \`npm run build\` first.`);
  }
}

/** The modules beside widget.js, by what they hold: `apply`, `quick-apply`, `photos`, or a language. */
async function modules(): Promise<Map<string, string>> {
  const names = (await readdir(dir)).filter((n) => n !== 'widget.js' && !n.endsWith('.map'));
  return new Map(names.map((n) => [/^widget-([a-z]{2}|apply|quick-apply|photos)-[\w-]{8}\.js$/.exec(n)?.[1] ?? n, n]));
}

/**
 * The photos of a paper resume's pages (scaling, thumbnails): a module the
 * apply form's imports once a candidate chooses photos, so that a form
 * without them loads none of it.
 */
const photosBudget = 2 * 1024;

const gzipped = async (name: string) => gzipSync(await built(name)).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

test(`the script-tag bundle, gzipped, is at most ${mainBudget / 1024} KB with Lit, its hydration support and the offers; ${languageBudget / 1024} KB with a language module; ${applyBudget / 1024} KB with the apply form's; ${quickApplyBudget / 1024} KB with quick apply's too`, async () => {
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
    // Quick apply's module loads with the form's.
    const withForm = name === 'quick-apply' ? await gzipped(found.get('apply')!) : 0;
    const total = main + withForm + (await gzipped(file));
    const budget = name === 'apply' ? applyBudget : name === 'quick-apply' ? quickApplyBudget : languageBudget;
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

test("besides widget.js there is the apply form's module, quick apply's and the photos' that it imports, and one per other language, which import nothing but widget.js", async () => {
  const found = await modules();
  assert.deepEqual([...found.keys()].sort(), ['apply', 'es', 'fr', 'photos', 'quick-apply']);
  const main = await built('widget.js');
  assert.doesNotMatch(main, /\bimport\s*[^(]*?from\s*["'`]/, 'widget.js must not import other modules statically');
  const apply = await built(found.get('apply')!);
  for (const [key, name] of found) {
    const importer = key === 'photos' || key === 'quick-apply' ? apply : main;
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
