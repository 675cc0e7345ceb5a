// An OpenAPI 3.1 document as one HTML page to read (GET /docs of the
// sandbox, GET /api/docs of the proxy): its introduction, its operations by
// tag (parameters, body, answers), its webhooks and its named schemas, with
// a table of contents. HTML and CSS only: readable with no script, nothing
// fetched, so the page holds to the strictest policy (docs-page.ts); nested
// objects open in <details>, which needs no script either.
//
// Rendered by the server from the document it serves, when first asked:
// nothing to build, always the document of this version.
import type { Components, Schema } from './reference-schema.ts';
import { escapeHtml, prose, properties, rules, schemaAnchor, schemaBlock, typeLabel } from './reference-schema.ts';
import { REFERENCE_STYLES } from './reference-styles.ts';

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Media = { schema?: Schema; example?: unknown; examples?: Record<string, { summary?: string; value?: unknown }> };
type Header = { description?: string; required?: boolean; schema?: Schema };
type Answer = { description?: string; headers?: Record<string, Header>; content?: Record<string, Media> };
type Body = { description?: string; required?: boolean; content?: Record<string, Media> };
type Ref = { $ref: string };
type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: (Parameter | Ref)[];
  requestBody?: Body | Ref;
  responses?: Record<string, Answer | Ref>;
  security?: Record<string, string[]>[];
};
type PathItem = Record<string, Operation | (Parameter | Ref)[] | string | undefined> & {
  parameters?: (Parameter | Ref)[];
};
type SecurityScheme = { type: string; scheme?: string; bearerFormat?: string; name?: string; description?: string };

/** The members of a document this page reads. */
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: {
    schemas?: Components;
    securitySchemes?: Record<string, SecurityScheme>;
    responses?: Record<string, Answer>;
    parameters?: Record<string, Parameter>;
    requestBodies?: Record<string, Body>;
  };
};

/** `item`, or the component its `$ref` names (`#/components/responses/NotFound`). */
function resolved<T>(doc: OpenApiDocument, item: T | { $ref: string }): T {
  if (typeof item !== 'object' || item === null || !('$ref' in item)) return item;
  const [kind, name] = item.$ref.replace(/^#\/components\//, '').split('/') as [string, string];
  const found = (doc.components as Record<string, Record<string, T> | undefined> | undefined)?.[kind]?.[name];
  if (found === undefined) throw new Error(`The document refers to ${item.$ref}, which it does not hold`);
  return found;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** One operation of the document, where it is found (a path, or a webhook's name). */
interface Entry {
  where: string;
  method: string;
  operation: Operation;
  inherited: (Parameter | Ref)[];
  anchor: string;
}

function entriesOf(items: Record<string, PathItem> | undefined, prefix: string): Entry[] {
  return Object.entries(items ?? {}).flatMap(([where, item]) =>
    METHODS.filter((method) => typeof item[method] === 'object').map((method) => {
      const operation = item[method] as Operation;
      const id = operation.operationId ?? `${method}-${where}`;
      return {
        where,
        method,
        operation,
        inherited: item.parameters ?? [],
        anchor: `${prefix}-${id}`.replace(/[^A-Za-z0-9_-]/g, '-'),
      };
    }),
  );
}

function section(id: string, heading: string, body: string): string {
  return `<section id="${id}"><h2>${heading}</h2>${body}</section>`;
}

function parametersTable(parameters: Parameter[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map((p) => {
    const about = [prose(p.description), ...(p.schema === undefined ? [] : rules(p.schema))]
      .filter(Boolean)
      .join(' · ');
    return `<tr><td><code class="name">${escapeHtml(p.name)}</code>${
      p.required === true ? ' <span class="required">required</span>' : ''
    }</td><td>${escapeHtml(p.in)}</td><td class="type">${p.schema === undefined ? '' : typeLabel(p.schema)}</td><td>${about}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>type</th><th>description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function examplesOf(media: Media): string {
  const examples = [
    ...(media.example === undefined ? [] : [{ summary: 'Example', value: media.example }]),
    ...Object.entries(media.examples ?? {}).map(([name, e]) => ({ summary: e.summary ?? name, value: e.value })),
  ];
  return examples
    .map(
      (e) =>
        `<figure><figcaption>${prose(e.summary)}</figcaption><pre>${escapeHtml(
          typeof e.value === 'string' ? e.value : JSON.stringify(e.value, null, 2),
        )}</pre></figure>`,
    )
    .join('');
}

function contentOf(content: Record<string, Media> | undefined, components: Components, open: boolean): string {
  return Object.entries(content ?? {})
    .map(
      ([type, media]) =>
        `<div class="media"><code class="media-type">${escapeHtml(type)}</code>${
          media.schema === undefined ? '' : schemaBlock(media.schema, components, open)
        }${examplesOf(media)}</div>`,
    )
    .join('');
}

function headersOf(headers: Record<string, Header> | undefined): string {
  const rows = Object.entries(headers ?? {}).map(
    ([name, h]) =>
      `<li><code class="name">${escapeHtml(name)}</code> <span class="type">${
        h.schema === undefined ? '' : typeLabel(h.schema)
      }</span> ${[prose(h.description), ...(h.schema === undefined ? [] : rules(h.schema))].filter(Boolean).join(' · ')}</li>`,
  );
  return rows.length === 0 ? '' : `<ul class="headers">${rows.join('')}</ul>`;
}

function answersOf(doc: OpenApiDocument, responses: Operation['responses'], components: Components): string {
  const answers = Object.entries(responses ?? {})
    .map(([status, item]) => [status, resolved(doc, item)] as const)
    .map(
      ([status, answer]) =>
        `<li class="answer"><span class="status s${status[0]}">${escapeHtml(status)}</span> ${prose(
          answer.description,
        )}${headersOf(answer.headers)}${contentOf(answer.content, components, status.startsWith('2'))}</li>`,
    );
  return answers.length === 0 ? '' : `<h4>Answers</h4><ul class="answers">${answers.join('')}</ul>`;
}

function operationBlock(doc: OpenApiDocument, entry: Entry, components: Components): string {
  const { operation: op } = entry;
  const body = op.requestBody === undefined ? undefined : resolved(doc, op.requestBody);
  const parameters = [...entry.inherited, ...(op.parameters ?? [])].map((p) => resolved(doc, p));
  return [
    `<article class="operation" id="${entry.anchor}">`,
    `<h3><span class="method ${entry.method}">${entry.method.toUpperCase()}</span> <code class="path">${escapeHtml(entry.where)}</code></h3>`,
    op.summary === undefined ? '' : `<p class="summary">${prose(op.summary)}</p>`,
    op.deprecated === true ? '<p class="required">Deprecated.</p>' : '',
    op.description === undefined ? '' : `<p>${prose(op.description)}</p>`,
    op.security?.length === 0 ? '<p class="note">No credentials.</p>' : '',
    parametersTable(parameters),
    body === undefined
      ? ''
      : `<h4>Body${body.required === true ? ' <span class="required">required</span>' : ''}</h4>${
          body.description === undefined ? '' : `<p>${prose(body.description)}</p>`
        }${contentOf(body.content, components, true)}`,
    answersOf(doc, op.responses, components),
    '</article>',
  ].join('');
}

function introduction(doc: OpenApiDocument): string {
  const servers = (doc.servers ?? []).map(
    (s) => `<li><code>${escapeHtml(s.url)}</code>${s.description === undefined ? '' : ` ${prose(s.description)}`}</li>`,
  );
  const schemes = Object.entries(doc.components?.securitySchemes ?? {}).map(
    ([name, s]) =>
      `<li><code>${escapeHtml(name)}</code>: ${escapeHtml(
        [s.type, s.scheme, s.bearerFormat, s.name].filter((x) => x !== undefined).join(' '),
      )}${s.description === undefined ? '' : `. ${prose(s.description)}`}</li>`,
  );
  return [
    `<header><h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>`,
    doc.info.description === undefined ? '' : `<p>${prose(doc.info.description)}</p>`,
    servers.length === 0 ? '' : `<h4>Servers</h4><ul>${servers.join('')}</ul>`,
    schemes.length === 0 ? '' : `<h4>Authentication</h4><ul>${schemes.join('')}</ul>`,
    '</header>',
  ].join('');
}

/** The operations grouped by their first tag, in the document's order of tags (untagged ones last). */
function byTag(doc: OpenApiDocument, entries: Entry[]): { name: string; description?: string; entries: Entry[] }[] {
  const tags = [...(doc.tags ?? [])];
  for (const entry of entries) {
    const name = entry.operation.tags?.[0] ?? 'Other';
    if (!tags.some((t) => t.name === name)) tags.push({ name });
  }
  return tags
    .map((tag) => ({ ...tag, entries: entries.filter((e) => (e.operation.tags?.[0] ?? 'Other') === tag.name) }))
    .filter((group) => group.entries.length > 0);
}

function contents(groups: ReturnType<typeof byTag>, schemaNames: string[]): string {
  const links = groups.map(
    (group) =>
      `<li><a href="#tag-${schemaAnchor(group.name)}">${escapeHtml(group.name)}</a><ul>${group.entries
        .map(
          (e) =>
            `<li><a href="#${e.anchor}"><span class="method ${e.method}">${e.method.toUpperCase()}</span> ${escapeHtml(e.where)}</a></li>`,
        )
        .join('')}</ul></li>`,
  );
  if (schemaNames.length > 0) links.push('<li><a href="#schemas">Schemas</a></li>');
  return `<nav aria-label="Contents"><ul>${links.join('')}</ul></nav>`;
}

/** The whole page of `doc`. */
export function renderReference(doc: OpenApiDocument): string {
  const components = doc.components?.schemas ?? {};
  const entries = [...entriesOf(doc.paths, 'operation'), ...entriesOf(doc.webhooks, 'webhook')];
  const groups = byTag(doc, entries);
  const schemaNames = Object.keys(components);
  const tagSections = groups.map((group) =>
    section(
      `tag-${schemaAnchor(group.name)}`,
      escapeHtml(group.name),
      `${group.description === undefined ? '' : `<p>${prose(group.description)}</p>`}${group.entries
        .map((e) => operationBlock(doc, e, components))
        .join('')}`,
    ),
  );
  const schemas = schemaNames.map((name) => {
    const schema = components[name]!;
    const about = [prose(schema.description), ...rules(schema)].filter(Boolean).join(' · ');
    return `<article class="schema-entry" id="${schemaAnchor(name)}"><h3>${escapeHtml(name)} <span class="type">${typeLabel(
      { ...schema, $ref: undefined },
    )}</span></h3>${about === '' ? '' : `<p>${about}</p>`}${properties(schema, components, new Set([name]))}</article>`;
  });
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(doc.info.title)}</title>`,
    `<style>${REFERENCE_STYLES}</style>`,
    '</head>',
    '<body>',
    contents(groups, schemaNames),
    `<main>${introduction(doc)}${tagSections.join('')}${
      schemas.length === 0 ? '' : section('schemas', 'Schemas', schemas.join(''))
    }</main>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
