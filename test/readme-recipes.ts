// The README's recipes ("Where boards live") as written; the plain PHP and
// plain Node ones run: the PHP page under `php -S`, the Node page server as a child
// process. Only the addresses are set: the proxy's (for the page's server and
// for the browser), the widget's and the Node server's port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventually } from '../server/test/poll.ts';

const HEADINGS = { html: '#### A static page', php: '#### Plain PHP', js: '#### Plain Node' } as const;

/** The README's example in its ```LANG block under its recipe for that page ("Where boards live"). */
export function readmeExample(lang: keyof typeof HEADINGS): string {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const heading = HEADINGS[lang];
  assert.ok(readme.includes(heading), `the README has a "${heading}" recipe`);
  const block = new RegExp(`\\n\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``).exec(readme.slice(readme.indexOf(heading)));
  assert.ok(block, `the README shows a \`\`\`${lang} page built on the server`);
  return block[1]!;
}

/** The example with these addresses: the proxy's for the browser, and for the page's server if it has one. */
export function addressed(example: string, proxyUrl: string): string {
  assert.ok(example.includes('https://your-proxy.example'), "the example names the proxy's public address");
  return example.replaceAll('http://127.0.0.1:8080', proxyUrl).replaceAll('https://your-proxy.example', proxyUrl);
}

export interface RecipePage {
  /** The page's URL, without a query. */
  url: string;
  /** The PHP server or the Node page server: the caller stops it. */
  child: ChildProcess;
}

/** Serves the README's PHP or Node recipe from `dir` on `port` against the proxy at `proxyUrl`. */
export async function serveReadmePage(
  name: 'PHP' | 'Node',
  { dir, port, proxyUrl }: { dir: string; port: number; proxyUrl: string },
): Promise<RecipePage> {
  let child: ChildProcess;
  assert.ok(
    readmeExample(name === 'PHP' ? 'php' : 'js').includes('http://127.0.0.1:8080'),
    'the page server asks the proxy',
  );
  if (name === 'PHP') {
    writeFileSync(join(dir, 'index.php'), addressed(readmeExample('php'), proxyUrl));
    child = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', dir], { stdio: 'ignore' });
  } else {
    const proxyModule = pathToFileURL(join(import.meta.dirname, '../server/proxy/index.ts')).href;
    const example = addressed(readmeExample('js'), proxyUrl);
    assert.ok(
      example.includes("'jobboard-connector/proxy'") && example.includes('.listen(3000)'),
      'the Node example is a whole server on port 3000',
    );
    writeFileSync(
      join(dir, 'page-server.mjs'),
      example
        .replace("'jobboard-connector/proxy'", `'${proxyModule}'`)
        .replace('.listen(3000)', `.listen(${port}, '127.0.0.1')`),
    );
    child = spawn(process.execPath, [join(dir, 'page-server.mjs')], { stdio: 'inherit' });
  }
  const url = `http://127.0.0.1:${port}/${name === 'PHP' ? 'index.php' : ''}`;
  await eventually(async () => (await fetch(url).catch(() => undefined)) !== undefined, {
    timeoutMs: 20_000,
    what: `the ${name} page`,
  });
  return { url, child };
}
