// `npm run bench [-- name ...]`: runs the benchmarks and writes BENCHMARKS.md.
// Each bench module default-exports an async function returning a Markdown
// section; every section measures its comparisons side by side in one run.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';

const benches: Record<string, () => Promise<{ default: () => Promise<string> }>> = {
  sandbox: () => import('./sandbox.bench.ts'),
  client: () => import('./client.bench.ts'),
  proxy: () => import('./proxy.bench.ts'),
  'proxy-apply': () => import('./proxy-apply.bench.ts'),
  'proxy-scale': () => import('./proxy-scale.bench.ts'),
  'catalogue-search': () => import('./catalogue-search.bench.ts'),
  'catalogue-scale': () => import('./catalogue-scale.bench.ts'),
  widget: () => import('./widget.bench.ts'),
  lighthouse: () => import('./lighthouse.bench.ts'),
  phone: () => import('./phone.bench.ts'),
  funnel: () => import('./funnel.bench.ts'),
};

/** Headings of the sections of BENCHMARKS.md written by hand or by `npm run test:mutation`, never by a bench. */
const KEPT_SECTIONS = [
  '## Storage seam: before and after',
  '## One application store: before and after',
  '## Mutation score',
  '## Figures behind the code',
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`Unknown bench: ${unknown.join(', ')}. Known: ${Object.keys(benches).join(', ')}.`);
  process.exit(2);
}
const names = wanted.length > 0 ? wanted : Object.keys(benches);

const sections: string[] = [];
for (const name of names) {
  console.log(`bench ${name}…`);
  const mod = await benches[name]!();
  sections.push(await mod.default());
}

const file = new URL('../../BENCHMARKS.md', import.meta.url);
const machine = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}.`;
const today = new Date().toISOString().slice(0, 10);
const previous = wanted.length > 0 ? await readFile(file, 'utf8').catch(() => '') : '';

if (previous === '') {
  const header = [
    '# Benchmarks',
    '',
    `Produced by \`npm run bench${wanted.length > 0 ? ` -- ${wanted.join(' ')}` : ''}\` on ${today},`,
    machine,
    'Medians and ratios are measured side by side in one run.',
    '',
  ].join('\n');
  // Sections no bench writes (the mutation check's figures, a one-off comparison of two commits): a full run keeps them as they were.
  const kept = (await readFile(file, 'utf8').catch(() => ''))
    .split(/^(?=## )/m)
    .filter((part) => KEPT_SECTIONS.some((heading) => part.startsWith(heading)))
    .map((part) => part.trimEnd());
  await writeFile(file, `${header}\n${[...sections, ...kept].join('\n\n')}\n`);
} else {
  // Some benches only: replace their sections (matched by their "## " heading) and keep the others,
  // so that running one part's bench does not wipe the figures of the rest.
  await writeFile(
    file,
    mergeSections(previous, sections, `Re-run alone: \`npm run bench -- ${wanted.join(' ')}\` on ${today}, ${machine}`),
  );
}
console.log('wrote BENCHMARKS.md');

function mergeSections(text: string, fresh: string[], note: string): string {
  // A header line for a bench re-run alone: which benches, when, on what.
  const RERUN = /^Re-run alone: `npm run bench -- ([^`]*)`/;
  const parts = text.split(/^(?=## )/m);
  const names = new Set(RERUN.exec(note)?.[1]?.split(' ') ?? []);
  // One line per re-run; a re-run of the same benches replaces its line, the others stay.
  const header = (parts.shift() ?? '')
    .trimEnd()
    .split('\n')
    .filter((line) => {
      const earlier = RERUN.exec(line)?.[1]?.split(' ');
      return earlier === undefined || !earlier.every((name) => names.has(name));
    })
    .join('\n');
  const chunks = parts.map((chunk) => chunk.trimEnd());
  const heading = (section: string) => section.split('\n', 1)[0] ?? '';
  for (const section of fresh) {
    const at = chunks.findIndex((chunk) => heading(chunk) === heading(section));
    if (at === -1) chunks.push(section.trimEnd());
    else chunks[at] = section.trimEnd();
  }
  return `${header}\n${note}\n\n${chunks.join('\n\n')}\n`;
}
