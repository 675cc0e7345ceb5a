// `npm run bench [-- name ...]`: runs the benchmarks and writes BENCHMARKS.md.
// Each bench module default-exports an async function returning a Markdown
// section; every section measures its comparisons side by side in one run.
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';

const benches: Record<string, () => Promise<{ default: () => Promise<string> }>> = {
  sandbox: () => import('./sandbox.bench.ts'),
  client: () => import('./client.bench.ts'),
  proxy: () => import('./proxy.bench.ts'),
  'proxy-apply': () => import('./proxy-apply.bench.ts'),
  widget: () => import('./widget.bench.ts'),
};

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

const header = [
  '# Benchmarks',
  '',
  `Produced by \`npm run bench${wanted.length > 0 ? ` -- ${wanted.join(' ')}` : ''}\` on ${new Date().toISOString().slice(0, 10)},`,
  `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}.`,
  'Medians and ratios are measured side by side in one run.',
  '',
].join('\n');
await writeFile(new URL('../../BENCHMARKS.md', import.meta.url), `${header}\n${sections.join('\n\n')}\n`);
console.log('wrote BENCHMARKS.md');
