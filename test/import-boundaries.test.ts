// Which modules the widget and each server part may import, as
// eslint.config.js enforces it. The widget: the browser bundle must carry no
// server code, so the widget takes only the two contracts (server/contract/,
// server/public-api/), and of those only the plain modules at run time; the
// server parts import downwards only; no module imports itself through others.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { importCycles } from '../server/scripts/check-import-cycles.ts';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('..', import.meta.url)) });

/** The messages of the import rule for one line of code in a widget file. */
async function importProblems(code: string, filePath = 'widget/src/internal/some-module.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = [x];\n`, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe("the widget's imports from server/", () => {
  const SERVER = '../../../server';
  const WIDGET_TEST = 'widget/src/internal/x.test.ts';
  const assertRefused = async (code: string, filePath?: string) =>
    assert.equal((await importProblems(code, filePath)).length, 1, code);
  const assertTaken = async (code: string, filePath?: string) =>
    assert.deepEqual(await importProblems(code, filePath), [], code);

  it('refuses a proxy module, even for a type', async () => {
    for (const code of [
      `import { loadProxyConfig as x } from '${SERVER}/proxy/config.ts';`,
      `import type { ProxyConfig as x } from '${SERVER}/proxy/config.ts';`,
      `import { createClient as x } from '${SERVER}/client/index.ts';`,
    ])
      await assertRefused(code);
  });

  it('refuses a contract module that carries zod at run time, and takes it by import type', async () => {
    for (const code of [
      `import { CampaignList as x } from '${SERVER}/public-api/schemas.ts';`,
      `import { Campaign as x } from '${SERVER}/contract/index.ts';`,
    ])
      await assertRefused(code);
    await assertTaken(`import type { CampaignList as x } from '${SERVER}/public-api/schemas.ts';`);
  });

  it('takes the plain contract modules at run time', async () => {
    for (const code of [
      `import { LIST_URL_PARAMS as x } from '${SERVER}/public-api/list-params.ts';`,
      `import { feedUrlOf as x } from '${SERVER}/public-api/feed-url.ts';`,
      `import { APPLICATION_FORM as x } from '${SERVER}/public-api/application-form.ts';`,
      `import { UTM_FIELDS as x } from '${SERVER}/public-api/campaign-tracking.ts';`,
      `import { offerHead as x } from '${SERVER}/public-api/offer-head.ts';`,
      `import { PINNED_WIDGET_PATH as x } from '${SERVER}/public-api/pinned-widget.ts';`,
      `import { MAX_RESUME_PAGES as x } from '${SERVER}/public-api/resume-pages.ts';`,
      `import { SALARY_CURRENCY as x } from '${SERVER}/contract/values.ts';`,
      `import { startsLike as x } from '${SERVER}/contract/resume-signatures.ts';`,
    ])
      await assertTaken(code);
  });

  it("lets tests read the server's test files, and nothing else of the server", async () => {
    await assertTaken(`import { pdf as x } from '${SERVER}/test/portable-files.ts';`, WIDGET_TEST);
    await assertRefused(`import { pdf as x } from '${SERVER}/test/portable-files.ts';`);
    await assertRefused(`import { createProxy as x } from '${SERVER}/proxy/index.ts';`, WIDGET_TEST);
  });
});

/**
 * Each part of the server: the imports a module of it (`module`) may not
 * make, and those it may, by the module making them.
 */
const BOUNDARIES: { name: string; module: string; refuses: string[]; allows: Record<string, string[]> }[] = [
  {
    name: "keeps the recruitment API's contract free of our other code, its OpenAPI helper aside",
    module: 'server/contract/some-module.ts',
    refuses: [
      '../proxy/config.ts',
      '../sandbox/index.ts',
      '../client/index.ts',
      '../public-api/schemas.ts',
      '../owner-only.ts',
    ],
    allows: { 'server/contract/some-module.ts': ['../openapi/zod.ts', './records.ts'] },
  },
  {
    name: "keeps the proxy's public contract free of any implementation",
    module: 'server/public-api/some-module.ts',
    refuses: ['../proxy/config.ts', '../sandbox/index.ts', '../client/index.ts'],
    allows: { 'server/public-api/some-module.ts': ['../contract/index.ts'] },
  },
  {
    name: "keeps the client off the proxy, the sandbox and the proxy's public contract",
    module: 'server/client/resources/some-module.ts',
    refuses: ['../proxy/config.ts', '../../sandbox/index.ts', '../public-api/schemas.ts'],
    allows: {
      'server/client/some-module.ts': ['../contract/index.ts'],
      // Its tests run against the sandbox.
      'server/client/test/some-module.ts': ['../../sandbox/index.ts'],
    },
  },
  {
    name: "keeps the sandbox off the proxy, the client and the proxy's public contract",
    module: 'server/sandbox/routes/some-module.ts',
    refuses: ['../proxy/config.ts', '../../client/index.ts', '../public-api/schemas.ts'],
    allows: {
      'server/sandbox/some-module.ts': ['../contract/index.ts'],
      // A test may use any part.
      'server/sandbox/some-module.test.ts': ['../proxy/index.ts'],
    },
  },
  {
    name: "keeps the proxy's storage off its features, routes and HTTP layer, the catalogue's model aside",
    module: 'server/proxy/storage/some-module.ts',
    refuses: [
      '../applications/upload-spool.ts',
      '../http/health.ts',
      '../catalogue/routes/reader.ts',
      '../catalogue/catalogue.ts',
      '../config.ts',
    ],
    allows: {
      'server/proxy/storage/some-module.ts': [
        '../catalogue/types.ts',
        '../../public-api/webhook-events.ts',
        './sql.ts',
      ],
      // A test may use any part.
      'server/proxy/storage/some-module.test.ts': ['../index.ts'],
    },
  },
  {
    name: "keeps the proxy's HTTP layer off its features, stores and commands",
    module: 'server/proxy/http/some-module.ts',
    refuses: ['../storage/index.ts', '../catalogue/types.ts', '../commands/preamble.ts'],
    allows: { 'server/proxy/http/some-module.ts': ['../../public-api/problems.ts'] },
  },
];

describe("the server parts' imports", () => {
  const refused = async (filePath: string, from: string) =>
    (await importProblems(`import { thing as x } from '${from}';`, filePath)).length;

  for (const { name, module, refuses, allows } of BOUNDARIES) {
    it(name, async () => {
      for (const from of refuses) assert.equal(await refused(module, from), 1, `${module} importing ${from}`);
      for (const [file, imports] of Object.entries(allows))
        for (const from of imports) assert.equal(await refused(file, from), 0, `${file} importing ${from}`);
    });
  }
});

describe('import cycles', () => {
  it('names each set of modules that import each other, by a type import too, and nothing once they do not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jc-cycle-check-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import { b } from './b.ts';\nexport const a = (): number => b + 1;\n");
      writeFileSync(
        join(dir, 'b.ts'),
        "import type { Shape } from './c.ts';\nexport const b = 1;\nexport const shape: Shape | undefined = undefined;\n",
      );
      writeFileSync(join(dir, 'c.ts'), "export type { a } from './a.ts';\nexport type Shape = number;\n");
      writeFileSync(join(dir, 'd.ts'), "import { a } from './a.ts';\nexport const d = a;\n");
      assert.deepEqual(
        importCycles([dir]),
        [['a.ts', 'b.ts', 'c.ts'].map((f) => join(dir, f))],
        'd imports the cycle without being in it',
      );
      writeFileSync(join(dir, 'c.ts'), 'export type Shape = number;\n');
      assert.deepEqual(importCycles([dir]), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds none in this repository', () => {
    assert.deepEqual(
      importCycles(['server', 'widget', 'test'].map((part) => fileURLToPath(new URL(`../${part}`, import.meta.url)))),
      [],
    );
  });
});
