// npm run build:server, last: the compiled JavaScript of dist/server/ without
// its layout (indentation, line breaks), which was a tenth of the packed
// package. Only whitespace goes: names, statements and the `#!` line stay, so
// a stack trace still names each function and module.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';
import { packagePath } from '../package-root.ts';

const DIST = packagePath('dist', 'server');
const files = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
let before = 0;
let after = 0;
for (const file of files) {
  const path = join(DIST, file);
  const code = readFileSync(path, 'utf8');
  const compact = await minify(code, { module: true, compress: false, mangle: false, format: { comments: false } });
  if (compact.code === undefined) throw new Error(`${path}: terser gave no output`);
  writeFileSync(path, compact.code);
  before += code.length;
  after += compact.code.length;
}
console.log(`dist/server: ${files.length} JavaScript files compacted, ${before} to ${after} characters`);
