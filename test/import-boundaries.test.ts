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
  it('refuses a proxy module, even for a type', async () => {
    assert.equal(
      (await importProblems("import { loadProxyConfig as x } from '../../../server/proxy/config.ts';")).length,
      1,
    );
    assert.equal(
      (await importProblems("import type { ProxyConfig as x } from '../../../server/proxy/config.ts';")).length,
      1,
    );
    assert.equal(
      (await importProblems("import { createClient as x } from '../../../server/client/index.ts';")).length,
      1,
    );
  });

  it('refuses a contract module that carries zod at run time, and takes it by import type', async () => {
    assert.equal(
      (await importProblems("import { CampaignList as x } from '../../../server/public-api/schemas.ts';")).length,
      1,
    );
    assert.equal(
      (await importProblems("import { Campaign as x } from '../../../server/contract/index.ts';")).length,
      1,
    );
    assert.deepEqual(
      await importProblems("import type { CampaignList as x } from '../../../server/public-api/schemas.ts';"),
      [],
    );
  });

  it('takes the plain contract modules at run time', async () => {
    assert.deepEqual(
      await importProblems("import { LIST_URL_PARAMS as x } from '../../../server/public-api/list-params.ts';"),
      [],
    );
    assert.deepEqual(
      await importProblems("import { APPLICATION_FORM as x } from '../../../server/public-api/application-form.ts';"),
      [],
    );
    assert.deepEqual(
      await importProblems("import { UTM_FIELDS as x } from '../../../server/public-api/campaign-tracking.ts';"),
      [],
    );
    assert.deepEqual(
      await importProblems("import { offerHead as x } from '../../../server/public-api/offer-head.ts';"),
      [],
    );
    assert.deepEqual(
      await importProblems("import { PINNED_WIDGET_PATH as x } from '../../../server/public-api/pinned-widget.ts';"),
      [],
    );
    assert.deepEqual(
      await importProblems("import { MAX_RESUME_PAGES as x } from '../../../server/public-api/resume-pages.ts';"),
      [],
    );
    assert.deepEqual(
      await importProblems("import { SALARY_CURRENCY as x } from '../../../server/contract/values.ts';"),
      [],
    );
  });

  it("lets tests read the server's test files, and nothing else of the server", async () => {
    assert.deepEqual(
      await importProblems(
        "import { pdf as x } from '../../../server/test/portable-files.ts';",
        'widget/src/internal/x.test.ts',
      ),
      [],
    );
    assert.equal(
      (await importProblems("import { pdf as x } from '../../../server/test/portable-files.ts';")).length,
      1,
    );
    assert.equal(
      (
        await importProblems(
          "import { createProxy as x } from '../../../server/proxy/index.ts';",
          'widget/src/internal/x.test.ts',
        )
      ).length,
      1,
    );
  });
});

describe("the server parts' imports", () => {
  const refused = async (filePath: string, from: string) =>
    (await importProblems(`import { thing as x } from '${from}';`, filePath)).length;

  it("keeps the recruitment API's contract free of our other code, its OpenAPI helper aside", async () => {
    for (const from of [
      '../proxy/config.ts',
      '../sandbox/index.ts',
      '../client/index.ts',
      '../public-api/schemas.ts',
      '../owner-only.ts',
    ]) {
      assert.equal(await refused('server/contract/some-module.ts', from), 1, from);
    }
    assert.equal(await refused('server/contract/some-module.ts', '../openapi/zod.ts'), 0);
    assert.equal(await refused('server/contract/some-module.ts', './records.ts'), 0);
  });

  it("keeps the proxy's public contract free of any implementation", async () => {
    for (const from of ['../proxy/config.ts', '../sandbox/index.ts', '../client/index.ts'])
      assert.equal(await refused('server/public-api/some-module.ts', from), 1, from);
    assert.equal(await refused('server/public-api/some-module.ts', '../contract/index.ts'), 0);
  });

  it("keeps the client off the proxy, the sandbox and the proxy's public contract", async () => {
    for (const from of ['../proxy/config.ts', '../../sandbox/index.ts', '../public-api/schemas.ts'])
      assert.equal(await refused('server/client/resources/some-module.ts', from), 1, from);
    assert.equal(await refused('server/client/some-module.ts', '../contract/index.ts'), 0);
    assert.equal(
      await refused('server/client/test/some-module.ts', '../../sandbox/index.ts'),
      0,
      'its tests run against the sandbox',
    );
  });

  it("keeps the sandbox off the proxy, the client and the proxy's public contract", async () => {
    for (const from of ['../proxy/config.ts', '../../client/index.ts', '../public-api/schemas.ts'])
      assert.equal(await refused('server/sandbox/routes/some-module.ts', from), 1, from);
    assert.equal(await refused('server/sandbox/some-module.ts', '../contract/index.ts'), 0);
    assert.equal(
      await refused('server/sandbox/some-module.test.ts', '../proxy/index.ts'),
      0,
      'a test may use any part',
    );
  });

  it("keeps the proxy's storage off its features, routes and HTTP layer, the catalogue's model aside", async () => {
    for (const from of [
      '../applications/upload-spool.ts',
      '../http/health.ts',
      '../catalogue/routes/reader.ts',
      '../catalogue/catalogue.ts',
      '../config.ts',
    ])
      assert.equal(await refused('server/proxy/storage/some-module.ts', from), 1, from);
    for (const from of ['../catalogue/types.ts', '../../public-api/webhook-events.ts', './sql.ts'])
      assert.equal(await refused('server/proxy/storage/some-module.ts', from), 0, from);
    assert.equal(
      await refused('server/proxy/storage/some-module.test.ts', '../index.ts'),
      0,
      'a test may use any part',
    );
  });

  it("keeps the proxy's HTTP layer off its features, stores and commands", async () => {
    for (const from of ['../storage/index.ts', '../catalogue/types.ts', '../commands/preamble.ts'])
      assert.equal(await refused('server/proxy/http/some-module.ts', from), 1, from);
    assert.equal(await refused('server/proxy/http/some-module.ts', '../../public-api/problems.ts'), 0);
  });
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
