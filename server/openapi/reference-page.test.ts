// The reference page of an OpenAPI document (reference-page.ts), as the
// sandbox's /docs and the proxy's /api/docs render it: every operation there
// and in its contents, every schema link leading somewhere, the document's
// text shown as text, nothing fetched.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildRecruitmentApiDocument } from '../contract/openapi.ts';
import { buildOpenApi } from '../public-api/openapi.ts';
import { renderReference } from './reference-page.ts';
import type { OpenApiDocument } from './reference-page.ts';
import { resourcesFetched } from './test/page-resources.ts';

const DOCUMENTS = {
  'the recruitment API': buildRecruitmentApiDocument('test') as unknown as OpenApiDocument,
  "the proxy's API": buildOpenApi('test') as unknown as OpenApiDocument,
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** What the page says of each operation: its method and where (the path, or the webhook's name), in its heading. */
function operationsOf(doc: OpenApiDocument): { method: string; where: string }[] {
  return [doc.paths, doc.webhooks].flatMap((items) =>
    Object.entries(items ?? {}).flatMap(([where, item]) =>
      METHODS.filter((method) => method in item).map((method) => ({ method, where })),
    ),
  );
}

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

for (const [name, doc] of Object.entries(DOCUMENTS)) {
  describe(`the reference page of ${name}`, () => {
    const html = renderReference(doc);

    it('shows every operation with its method and path, and lists it in the contents', () => {
      const operations = operationsOf(doc);
      assert.ok(operations.length > 0);
      const [contents, main] = html.split('</nav>') as [string, string];
      const missing = operations
        .map(({ method, where }) => `${method.toUpperCase()}</span> ${escaped(where)}`)
        .filter(
          (heading) => !contents.includes(heading) || !main.replaceAll(' <code class="path">', ' ').includes(heading),
        );
      assert.deepEqual(missing, []);
    });

    it('leads every link of the page to an anchor in it: the contents to the operations, a type to its schema', () => {
      const anchors = new Set([...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]));
      const links = [...html.matchAll(/\bhref="#([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(links.some((link) => link.startsWith('schema-')));
      assert.deepEqual(
        links.filter((link) => !anchors.has(link)),
        [],
      );
      for (const schema of Object.keys(doc.components?.schemas ?? {}))
        assert.ok(anchors.has(`schema-${schema}`), schema);
    });

    it('is HTML and CSS only: no script, nothing fetched', () => {
      assert.deepEqual(resourcesFetched(html), []);
    });
  });
}

describe('the reference page of any document', () => {
  const doc: OpenApiDocument = {
    info: { title: 'A <b>title</b>', version: '1', description: 'Send `<id>` as **bold** text <script>x()</script>' },
    paths: {
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: [{ $ref: '#/components/parameters/Id' }],
          responses: { '404': { $ref: '#/components/responses/NotFound' } },
        },
      },
    },
    components: {
      parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'integer' } } },
      responses: { NotFound: { description: 'No thing of that id' } },
      schemas: {},
    },
  };
  const html = renderReference(doc);

  it("shows the document's text as text: markup in it is escaped, `code` and **bold** are rendered", () => {
    assert.match(html, /<title>A &lt;b&gt;title&lt;\/b&gt;<\/title>/);
    assert.match(
      html,
      /Send <code>&lt;id&gt;<\/code> as <strong>bold<\/strong> text &lt;script&gt;x\(\)&lt;\/script&gt;/,
    );
    assert.doesNotMatch(html, /<script/);
  });

  it('shows the parameters and answers a document names by $ref', () => {
    assert.match(html, /<code class="name">id<\/code> <span class="required">required<\/span><\/td><td>path<\/td>/);
    assert.match(html, /404<\/span> No thing of that id/);
  });

  it('refuses a $ref to a component the document does not hold, rather than show an empty answer', () => {
    const broken = { ...doc, components: { ...doc.components, responses: {} } };
    assert.throws(() => renderReference(broken), /#\/components\/responses\/NotFound/);
  });
});
