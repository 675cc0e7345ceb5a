// The package as a partner meets it: `npm pack`, then `npm install --omit=dev`
// of the tarball in an empty folder, then the commands, the exports (from
// plain .mjs and from TypeScript under nodenext), the mounting example, and
// in Chromium the pinned widget on a board with a strict CSP and the React
// entry on a React board, all from that folder. Needs `npm run build` first (npm test builds).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { BOARD_ORIGIN, apply, uniqueEmail, validFields } from './proxy-apply.test-support.ts';
import { eventually } from '../server/test/poll.ts';
import { pdf } from '../server/test/files.ts';
import { demoProxyEnv } from '../server/test/demo-proxy-env.ts';
import { launchChromium } from './chromium.ts';
import { collectViolations, parseWidgetTag, strictPolicy } from './e2e/board-security.ts';
import { fillAndSend } from './e2e/apply-form.ts';
import { applyOnReactBoard, serverRender, startReactBoard } from './e2e/react-board.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
/** A campaign the demo seed broadcasts on the demo job board. */
const DEMO_CAMPAIGN = 13;
// 600 KB until the package shipped the guides it cites (the partners' guide, the public API, the
// module READMEs, BENCHMARKS.md, the mount example): 616 KB with them and that release's code;
// 722 KB with webhooks, the status sync and receipt, ranked search, feeds and their OpenAPI pages;
// 773 KB with the release that bounded search, uploads and webhook reads (their code, guides and
// the longer OpenAPI descriptions), two thirds of it the two reference pages prebuilt by Redoc
// (2 MB of HTML), which the servers now render when first asked.
const MAX_TARBALL_BYTES = 800 * 1024;
/** The commands whose --help a partner reads. */
const COMMANDS = ['sandbox', 'proxy', 'outbox', 'webhooks', 'status-sync', 'migrate', 'demo', 'widget-tag'];

/** Documents a text names (`server/proxy/README.md`, `public-api/README.md`, `examples/mount-in-express.mjs`), as written. */
function citedDocuments(text: string): string[] {
  return [
    ...new Set(
      [...text.matchAll(/(?<![\w/.-])((?:\.\.?\/)*[\w-]+(?:\/[\w.-]+)*\.(?:md|mjs))\b/g)].map((m) => m[1] as string),
    ),
  ];
}

/**
 * The packed file a citation in `from` (a packed path) names: relative to the
 * citing file, else to the package root, else the one packed file whose path
 * ends with it (`applications/README.md` in the proxy's row).
 * Undefined when none is packed.
 */
function packedFileCited(cited: string, from: string, files: string[]): string | undefined {
  const candidates = [posix.normalize(posix.join(posix.dirname(from), cited)), posix.normalize(cited)];
  return candidates.find((c) => files.includes(c)) ?? files.find((f) => f.endsWith(`/${cited}`));
}

/** The relative link targets of a Markdown text, without their #fragment: what npm's page and a reader of node_modules follow. */
function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
  return targets.filter((t) => !/^([a-z]+:|#|\/)/i.test(t)).map((t) => t.replace(/#.*$/, ''));
}

let dir: string;
let tarball: string;
let packed: string[];
const children: ChildProcess[] = [];

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** Runs the installed package's command; answers its exit code and output. */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['--no-install', 'jobboard-connector', ...args], { cwd: dir });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** Starts a long-running process in the install folder and waits for the line that gives its URL. */
async function startAndReadUrl(
  command: string,
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Promise<string> {
  const child = spawn(command, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} printed no URL in 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

before(async () => {
  assert.ok(existsSync(join(ROOT, 'dist/server/cli.js')), 'dist/server is missing: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'jobboard-package-'));
  // The tree is built already: pack what is there without running prepack's build again.
  const out = JSON.parse(await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], ROOT)) as [
    { filename: string; size: number; files: { path: string }[] },
  ];
  tarball = join(dir, out[0].filename);
  packed = out[0].files.map((f) => f.path);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'partner-app', private: true, type: 'module' }));
  await npm(['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], dir);
});

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the compiled server, the widget builds and the docs, and no tests, fixtures, bench files or TypeScript sources', () => {
    for (const file of [
      'dist/server/cli.js',
      'dist/server/proxy/index.d.ts',
      'dist/server/openapi/reference-page.js',
      'dist/npm/index.js',
      'dist/widget/widget.js',
      'widget/demo/index.html',
      'CHANGELOG.md',
      'README.md',
      'LICENSE',
    ]) {
      assert.ok(packed.includes(file), `${file} is not in the tarball`);
    }
    const unwanted = packed.filter(
      (f) =>
        /(\.test\.|\/test\/|test-helpers|test-support|fixtures|bench|\.map$)/.test(f) ||
        (f.endsWith('.ts') && !f.endsWith('.d.ts')),
    );
    assert.deepEqual(unwanted, []);
  });

  it('holds every document its Markdown files cite, and the files those cite in turn', () => {
    const shippedDocs = packed.filter((f) => f.endsWith('.md'));
    // The guides a partner is sent to from the README.
    for (const guide of [
      'server/proxy/README.md',
      'server/public-api/README.md',
      'server/proxy/applications/README.md',
      'server/sandbox/README.md',
      'server/client/README.md',
      'widget/README.md',
      'server/proxy/examples/mount-in-express.mjs',
    ]) {
      assert.ok(packed.includes(guide), `${guide} is not in the tarball`);
    }
    const missing = shippedDocs.flatMap((doc) =>
      citedDocuments(readFileSync(join(ROOT, doc), 'utf8'))
        .filter((cited) => packedFileCited(cited, doc, packed) === undefined)
        .map((cited) => `${doc} cites ${cited}`),
    );
    assert.deepEqual(missing, []);
  });

  it('holds the file of every relative link in its Markdown files, so that the links work from node_modules and on the package page', () => {
    const broken = packed
      .filter((f) => f.endsWith('.md'))
      .flatMap((doc) =>
        relativeLinks(readFileSync(join(ROOT, doc), 'utf8'))
          .filter((target) => !packed.includes(posix.normalize(posix.join(posix.dirname(doc), target))))
          .map((target) => `${doc} links ${target}`),
      );
    assert.deepEqual(broken, []);
  });

  it('names its licence, repository, home page and issue tracker (npm renders relative README links against the repository)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.license, 'MIT');
    assert.match(
      readFileSync(join(ROOT, 'LICENSE'), 'utf8'),
      /^MIT License\n\nCopyright \(c\) \d{4} jobboard-connector developers\n/,
    );
    const repository = manifest.repository as { type: string; url: string };
    assert.equal(repository.type, 'git');
    assert.match(repository.url, /^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
    const web = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    assert.equal(manifest.homepage, `${web}#readme`);
    assert.deepEqual(manifest.bugs, { url: `${web}/issues` });
  });

  it(`weighs at most ${MAX_TARBALL_BYTES / 1024} KB`, () => {
    const size = readFileSync(tarball).length;
    assert.ok(size <= MAX_TARBALL_BYTES, `the tarball is ${size} bytes`);
  });

  it('passes npm publish --dry-run', async () => {
    const { stdout } = await run('npm', ['publish', '--dry-run', '--ignore-scripts', '--tag', 'dry-run'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    assert.match(stdout, /^\+ jobboard-connector@0\.2\.0$/m);
  });
});

describe('the installed package', () => {
  it('answers --help, and --help of each command', async () => {
    const top = await cli(['--help']);
    assert.equal(top.code, 0, top.out);
    for (const command of COMMANDS) {
      assert.match(top.out, new RegExp(`^  ${command} `, 'm'));
      const help = await cli([command, '--help']);
      assert.equal(help.code, 0, `${command} --help: ${help.out}`);
      assert.match(help.out, new RegExp(`Usage: jobboard-connector ${command}`));
    }
  });

  it('holds, where --help says, every document the --help texts cite', async () => {
    const installed = join(dir, 'node_modules/jobboard-connector');
    const texts = [await cli(['--help']), ...(await Promise.all(COMMANDS.map((command) => cli([command, '--help']))))];
    const cited = texts.flatMap((help) => citedDocuments(help.out));
    assert.ok(cited.includes('server/proxy/README.md'), 'proxy --help sends the partner to its guide');
    const missing = cited.filter((path) => !existsSync(join(installed, path)));
    assert.deepEqual(missing, []);
  });

  it('runs the sandbox and the proxy, and takes an application with a PDF over HTTP', async () => {
    const bin = join(dir, 'node_modules/.bin/jobboard-connector');
    const sandboxUrl = await startAndReadUrl(
      bin,
      ['sandbox', '--port', '0', '--seed', 'demo', '--admin'],
      {},
      /listening on (http:\/\/\S+)/,
    );
    const proxyUrl = await startAndReadUrl(
      bin,
      ['proxy'],
      demoProxyEnv(sandboxUrl, { ALLOWED_ORIGINS: BOARD_ORIGIN, DATA_DIR: join(dir, 'proxy-data'), LOG_LEVEL: 'warn' }),
      /Proxy listening on (http:\/\/\S+)/,
    );
    await eventually(async () => (await fetch(`${proxyUrl}/readyz`)).status === 200, {
      timeoutMs: 15_000,
      what: 'the proxy to sync its catalogue',
    });

    const email = uniqueEmail('packaged');
    const answer = await apply(proxyUrl, {
      fields: validFields(DEMO_CAMPAIGN, email),
      resume: { bytes: pdf({ text: 'Ada Lovelace, engineer' }) },
    });
    assert.equal(answer.status, 201, answer.text);

    // The installed client, from plain .mjs, finds the applicant in the sandbox.
    const script = join(dir, 'check-applicant.mjs');
    writeFileSync(
      script,
      `import { createClient } from 'jobboard-connector/client';
import { DEMO_ENTITY_COMPANY_KEYS as keys } from 'jobboard-connector/sandbox';
// The company whose campaigns the demo job board broadcasts.
const client = createClient({ baseUrl: process.env.SANDBOX_URL, privateKey: keys.private_key, secretKey: keys.secret_key });
const applicant = await client.applicants.get(process.env.EMAIL);
console.log(JSON.stringify({ email: applicant.email }));
`,
    );
    const { stdout } = await run('node', [script], {
      cwd: dir,
      env: { ...process.env, SANDBOX_URL: sandboxUrl, EMAIL: email },
    });
    const seen = JSON.parse(stdout) as { email: string };
    assert.equal(seen.email, email);

    // The OpenAPI documents and their references, which each server renders when first asked.
    const sandboxOrigin = new URL(sandboxUrl).origin;
    for (const url of [
      `${sandboxOrigin}/openapi.json`,
      `${sandboxOrigin}/docs`,
      `${proxyUrl}/api/openapi.json`,
      `${proxyUrl}/api/docs`,
    ]) {
      assert.equal((await fetch(url)).status, 200, url);
    }
  });

  it('runs the demo, which serves its board page and the widget from the package, pinned with the integrity widget-tag prints', async () => {
    const bin = join(dir, 'node_modules/.bin/jobboard-connector');
    const pageUrl = await startAndReadUrl(
      bin,
      ['demo', '--port', '0', '--sandbox-port', '0'],
      {},
      /job-board page\s+(http:\/\/\S+)/,
    );
    const page = await fetch(pageUrl);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script type="module" src="\/widget\.js"><\/script>/);
    const widget = await fetch(new URL('/widget.js', pageUrl));
    assert.equal(widget.status, 200);
    assert.equal(
      await widget.text(),
      readFileSync(join(dir, 'node_modules/jobboard-connector/dist/widget/widget.js'), 'utf8'),
    );

    // The pinned tags of that proxy: each integrity is that of the bytes served, widget.js's at a URL cached for good.
    const tag = await cli(['widget-tag', '--endpoint', new URL(pageUrl).origin]);
    assert.equal(tag.code, 0, tag.out);
    const src =
      /<script type="module" src="([^"]+)" integrity="(sha384-[^"]+)" crossorigin="anonymous"><\/script>/.exec(tag.out);
    assert.ok(src, tag.out);
    const importMap = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(tag.out)?.[1] ?? '{}') as {
      integrity: Record<string, string>;
    };
    assert.equal(importMap.integrity[src[1]!], src[2]);
    const built = readdirSync(join(dir, 'node_modules/jobboard-connector/dist/widget'))
      .filter((name) => name.endsWith('.js') && name !== 'widget.js')
      .sort();
    const pinned = Object.keys(importMap.integrity)
      .filter((url) => url !== src[1])
      .map((url) => basename(new URL(url).pathname))
      .sort();
    assert.deepEqual(
      pinned,
      built,
      "widget.js and every module beside it: the form's, those it imports, the languages'",
    );
    for (const [url, integrity] of Object.entries(importMap.integrity)) {
      const served = await fetch(url);
      assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable', url);
      assert.equal(
        `sha384-${createHash('sha384')
          .update(Buffer.from(await served.arrayBuffer()))
          .digest('base64')}`,
        integrity,
        url,
      );
    }
    assert.ok(existsSync(join(dir, '.data/demo-proxy')), 'the demo keeps its data in the current folder');
  });

  it('imports every export from plain .mjs', async () => {
    const script = join(dir, 'imports.mjs');
    writeFileSync(
      script,
      `import { createClient, ApiError, ConflictError, fileFromBuffer } from 'jobboard-connector/client';
import { JobboardApplicantInput, JOB_TYPES } from 'jobboard-connector/contract';
import { createProxy, startProxy, loadProxyConfig, ConfigError } from 'jobboard-connector/proxy';
import { startSandbox } from 'jobboard-connector/sandbox';
import { JobboardApply, JobboardCampaigns, defineElement } from 'jobboard-connector/widget';
// The script-tag bundle defines its elements in a browser: here it is only resolved.
const scriptTag = import.meta.resolve('jobboard-connector/widget.js');
// The React entry needs the application's React (an optional peer): here it is only resolved.
const reactEntry = import.meta.resolve('jobboard-connector/react');
let configError = '';
try { loadProxyConfig({}); } catch (error) { configError = error instanceof ConfigError ? error.message : 'not a ConfigError'; }
const sandbox = await startSandbox({ seed: 'demo' });
await sandbox.close();
const file = await fileFromBuffer(Buffer.from('%PDF-1.4\\n%%EOF\\n'), { name: 'cv.pdf' });
console.log(JSON.stringify({
  functions: [createClient, createProxy, startProxy, startSandbox].map((f) => typeof f),
  errors: new ConflictError({ method: 'POST', url: 'http://x/v2/applicants', status: 409, code: 'applicant_exists', message: 'exists', existingId: 7 }) instanceof ApiError,
  schema: JobboardApplicantInput.safeParse({}).success,
  jobTypes: JOB_TYPES.length,
  configError,
  sandboxUrl: sandbox.url,
  fileType: file.mime_type,
  widget: [JobboardApply, JobboardCampaigns, defineElement].map((f) => typeof f),
  scriptTag: scriptTag.endsWith('/dist/widget/widget.js'),
  reactEntry: reactEntry.endsWith('/dist/npm/react.js'),
}));
`,
    );
    const { stdout } = await run('node', [script], { cwd: dir });
    const seen = JSON.parse(stdout) as Record<string, unknown>;
    assert.deepEqual(seen.functions, ['function', 'function', 'function', 'function']);
    assert.equal(seen.errors, true);
    assert.equal(seen.schema, false);
    assert.ok((seen.jobTypes as number) > 0);
    assert.match(seen.configError as string, /UPSTREAM_URL is required/);
    assert.match(seen.sandboxUrl as string, /^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    assert.equal(seen.fileType, 'pdf');
    assert.deepEqual(seen.widget, ['function', 'function', 'function']);
    assert.equal(seen.scriptTag, true);
    assert.equal(seen.reactEntry, true);
  });

  it('type-checks a TypeScript consumer of each export under moduleResolution nodenext', async () => {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023', 'DOM'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    // Each @ts-expect-error fails the check if the types behind it were lost (an untyped export is `any`).
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import { createClient, ConflictError } from 'jobboard-connector/client';
import type { Campaign } from 'jobboard-connector/client';
import { JobboardApplicantInput } from 'jobboard-connector/contract';
import type { JobType } from 'jobboard-connector/contract';
import { createProxy, loadProxyConfig } from 'jobboard-connector/proxy';
import type { Proxy, ProxyConfig } from 'jobboard-connector/proxy';
import { startSandbox } from 'jobboard-connector/sandbox';
import { JobboardApply, defineElement } from 'jobboard-connector/widget';

const client = createClient({ baseUrl: 'http://127.0.0.1:4010/v2', privateKey: 'p', secretKey: 's' });
// @ts-expect-error the client needs its keys
createClient({ baseUrl: 'http://127.0.0.1:4010/v2' });
export async function firstTitle(): Promise<string | null | undefined> {
  const page = await client.campaigns.list({ per_page: 10 });
  const first: Campaign | undefined = page.data[0];
  return first?.name;
}
export const isConflict = (error: unknown): boolean => error instanceof ConflictError;

const applicant = JobboardApplicantInput.parse({});
// @ts-expect-error the parsed applicant's email is a string
export const emailIsNumber: number = applicant.email;
// @ts-expect-error not a job type of the API
export const jobType: JobType = 'not-a-job-type';

const config: ProxyConfig = loadProxyConfig(process.env);
const proxy: Proxy = createProxy(config);
proxy.start();
// @ts-expect-error stop() returns a promise to await
export const stopped: void = proxy.stop();

export const sandbox = startSandbox({ seed: 'demo', rateLimitPerMinute: 120 });
// @ts-expect-error 'spring' is no seed
startSandbox({ seed: 'spring' });

defineElement('jobboard-apply', JobboardApply);
`,
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run('node', [tsc, '-p', 'tsconfig.json'], { cwd: dir }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    assert.equal(result, '', result);
  });

  it('in Chromium, on a board with the strict CSP and Trusted Types, runs the widget the package serves pinned: lists, opens an offer and takes an application, with no violation', async () => {
    // The board's server first: the demo's proxy must allow its origin, and the page needs the proxy's address and tags.
    let page = { proxy: '', head: '', importMapSource: '' };
    const board = createServer((req, res) => {
      // No favicon, and no 404 for it in the console either.
      if (req.url !== '/') {
        res.writeHead(204);
        res.end();
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': strictPolicy(page.proxy, [page.importMapSource]),
      });
      res.end(`<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Offres</title>
${page.head}</head><body><h1>Nos offres</h1><jobboard-campaigns endpoint="${page.proxy}"></jobboard-campaigns></body></html>`);
    });
    await new Promise<void>((resolve) => board.listen(0, '127.0.0.1', resolve));
    const boardOrigin = `http://127.0.0.1:${(board.address() as AddressInfo).port}`;
    const browser = await launchChromium();
    try {
      const demoUrl = await startAndReadUrl(
        join(dir, 'node_modules/.bin/jobboard-connector'),
        ['demo', '--port', '0', '--sandbox-port', '0', '--data-dir', join(dir, 'csp-demo')],
        { ALLOWED_ORIGINS: boardOrigin, LOG_LEVEL: 'warn' },
        /job-board page\s+(http:\/\/\S+)/,
      );
      const proxy = new URL(demoUrl).origin;
      const tag = await cli(['widget-tag', '--endpoint', proxy]);
      assert.equal(tag.code, 0, tag.out);
      page = { proxy, ...parseWidgetTag(tag.out) };
      const resume = join(dir, 'cv.pdf');
      writeFileSync(resume, pdf({ text: 'Ana Lopez - data analyst' }));

      const tab = await browser.newPage();
      const violations = await collectViolations(tab);
      await tab.goto(`${boardOrigin}/`);
      await tab.locator('jobboard-campaigns [data-offer]').first().click();
      await tab.locator('jobboard-campaigns [part="description"] .rich').first().waitFor();
      // The JobPosting is fetched once the offer shows: wait for it, then check there is one.
      await tab
        .locator('head script[type="application/ld+json"]')
        .first()
        .waitFor({ state: 'attached', timeout: 10_000 });
      assert.equal(
        await tab.locator('head script[type="application/ld+json"]').count(),
        1,
        'the JobPosting is in the head',
      );
      await fillAndSend(tab, {
        email: uniqueEmail('packaged-csp'),
        firstName: 'Ana',
        lastName: 'Lopez',
        resume: resume,
      });
      await tab.locator('jobboard-apply [part="outcome"].success').waitFor({ timeout: 15_000 });
      assert.deepEqual(violations, []);
    } finally {
      await browser.close();
      board.close();
    }
  });

  it("in Chromium, a React 19 board renders the package's React entry on its server, hydrates it and hears the application through onApplicationReceived", async () => {
    // React is the board's (an optional peer of the package): this repository's copy stands in for the board's own install.
    for (const name of ['react', 'react-dom', 'scheduler'])
      symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
    const reactEntry = join(dir, 'node_modules/jobboard-connector/dist/npm/react.js');
    let proxy = '';
    const board = await startReactBoard(reactEntry, () => proxy);
    const browser = await launchChromium();
    try {
      const demoUrl = await startAndReadUrl(
        join(dir, 'node_modules/.bin/jobboard-connector'),
        ['demo', '--port', '0', '--sandbox-port', '0', '--data-dir', join(dir, 'react-demo')],
        { ALLOWED_ORIGINS: board.origin, LOG_LEVEL: 'warn' },
        /job-board page\s+(http:\/\/\S+)/,
      );
      proxy = new URL(demoUrl).origin;
      const resume = join(dir, 'react-cv.pdf');
      writeFileSync(resume, pdf({ text: 'Ana Lopez - data analyst' }));
      assert.match(await serverRender(reactEntry, proxy), /<jobboard-campaigns><\/jobboard-campaigns>/);

      const visit = await applyOnReactBoard(browser, board.origin, resume, uniqueEmail('packaged-react'));
      assert.equal(visit.received.length, 1);
      assert.match(visit.received[0]!.status, /^(delivered|queued)$/);
      assert.deepEqual([...visit.reactErrors, ...visit.errors], []);
    } finally {
      await browser.close();
      board.server.close();
    }
  });

  it('runs the example that mounts the proxy in an existing Express app', async () => {
    const sandboxUrl = await startAndReadUrl(
      join(dir, 'node_modules/.bin/jobboard-connector'),
      ['sandbox', '--port', '0', '--seed', 'demo'],
      {},
      /listening on (http:\/\/\S+)/,
    );
    copyFileSync(join(ROOT, 'server/proxy/examples/mount-in-express.mjs'), join(dir, 'mount-in-express.mjs'));
    const boardUrl = await startAndReadUrl(
      'node',
      ['mount-in-express.mjs'],
      demoProxyEnv(sandboxUrl, {
        ALLOWED_ORIGINS: BOARD_ORIGIN,
        DATA_DIR: join(dir, 'mounted-data'),
        LOG_LEVEL: 'warn',
      }),
      /Board listening on (http:\/\/\S+?)\/ /,
    );
    const page = await fetch(`${boardUrl}/`);
    assert.match(await page.text(), /<jobboard-campaigns endpoint="\/jobs">/);
    const widget = await fetch(`${boardUrl}/jobs/widget.js`);
    assert.equal(widget.status, 200);
    assert.match(widget.headers.get('content-type') ?? '', /javascript/);
    await eventually(async () => (await fetch(`${boardUrl}/jobs/readyz`)).status === 200, {
      timeoutMs: 15_000,
      what: 'the mounted proxy to sync',
    });
    const list = (await (await fetch(`${boardUrl}/jobs/api/campaigns`)).json()) as { items: { id: number }[] };
    assert.ok(
      list.items.some((c) => c.id === DEMO_CAMPAIGN),
      'the demo campaign is in the mounted catalogue',
    );
    const answer = await apply(`${boardUrl}/jobs`, { fields: validFields(DEMO_CAMPAIGN) });
    assert.equal(answer.status, 201, answer.text);
  });
});
