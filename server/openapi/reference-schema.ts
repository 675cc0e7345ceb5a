// The schemas of an OpenAPI 3.1 document as HTML, for the reference pages
// (reference-page.ts): a schema's type in a few words (`string | null`,
// `array of Campaign`, a link to a named schema), its rules (enum, format,
// bounds, pattern, default, example), and an object's properties as a list,
// nested objects in a <details> a reader opens without any script.

/** A JSON Schema as the documents write it: the members read here. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  not?: Schema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
};

/** Resolves `#/components/schemas/Name` in the document being rendered. */
export type Components = Record<string, Schema>;

const REF_PREFIX = '#/components/schemas/';

/** Text of the document made safe for HTML: nothing in a description can become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** A description as the documents write them: plain text with `code` and **bold**, escaped first. */
export function prose(text: string | undefined): string {
  if (text === undefined || text === '') return '';
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\n\n+/g, '</p><p>')
    .replace(/\n/g, '<br>');
}

/** The anchor of a named schema in the page's Schemas section. */
export function schemaAnchor(name: string): string {
  return `schema-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

function refName(ref: string): string {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
}

function literal(value: unknown): string {
  return `<code>${escapeHtml(JSON.stringify(value))}</code>`;
}

/** The schema's type in a few words, named schemas as links. */
export function typeLabel(schema: Schema): string {
  if (schema.$ref !== undefined) {
    const name = refName(schema.$ref);
    return `<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`;
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (union !== undefined) return union.map(typeLabel).join(' | ');
  if (schema.allOf !== undefined) return schema.allOf.map(typeLabel).join(' &amp; ');
  if (schema.const !== undefined) return literal(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length === 0) return schema.properties === undefined ? 'any' : 'object';
  return types
    .map((type) => {
      if (type === 'array' && schema.items !== undefined) return `array of ${typeLabel(schema.items)}`;
      if (type === 'object' && schema.properties === undefined && typeof schema.additionalProperties === 'object') {
        return `map of ${typeLabel(schema.additionalProperties)}`;
      }
      return escapeHtml(type);
    })
    .join(' | ');
}

/** The schema's rules a reader needs, in words: allowed values, format, bounds, pattern, default, examples. */
export function rules(schema: Schema): string[] {
  const found: string[] = [];
  const union = schema.anyOf ?? schema.oneOf ?? [];
  for (const part of [schema, ...union.filter((s) => s.$ref === undefined)]) {
    if (part.enum !== undefined) found.push(`one of ${part.enum.map(literal).join(', ')}`);
    if (part.format !== undefined) found.push(`format ${escapeHtml(part.format)}`);
    const bounds: [keyof Schema, string][] = [
      ['minimum', '≥'],
      ['exclusiveMinimum', '>'],
      ['maximum', '≤'],
      ['exclusiveMaximum', '<'],
      ['minLength', 'length ≥'],
      ['maxLength', 'length ≤'],
      ['minItems', 'items ≥'],
      ['maxItems', 'items ≤'],
    ];
    for (const [key, words] of bounds) if (part[key] !== undefined) found.push(`${words} ${String(part[key])}`);
    // A date's or an email's pattern only spells out its format.
    if (part.pattern !== undefined && part.format === undefined) {
      found.push(`pattern <code>${escapeHtml(part.pattern)}</code>`);
    }
    if (part.items?.enum !== undefined) found.push(`items one of ${part.items.enum.map(literal).join(', ')}`);
  }
  if (schema.not !== undefined) found.push(`not ${typeLabel(schema.not)}`);
  if (schema.default !== undefined) found.push(`default ${literal(schema.default)}`);
  if (schema.example !== undefined) found.push(`example ${literal(schema.example)}`);
  for (const example of schema.examples ?? []) found.push(`example ${literal(example)}`);
  if (schema.readOnly === true) found.push('read-only');
  if (schema.writeOnly === true) found.push('write-only');
  if (schema.deprecated === true) found.push('deprecated');
  return found;
}

/** The object whose properties a schema shows, if any: itself, its array's items, or one member of its union. */
function objectOf(schema: Schema, components: Components, seen: Set<string>): Schema | undefined {
  if (schema.$ref !== undefined) {
    const name = refName(schema.$ref);
    const target = components[name];
    // A named schema is shown once on the way down (a schema that contains itself stops there).
    return target === undefined || seen.has(name) ? undefined : objectOf(target, components, new Set([...seen, name]));
  }
  if (schema.properties !== undefined) return schema;
  if (schema.items !== undefined) return objectOf(schema.items, components, seen);
  for (const part of schema.anyOf ?? schema.oneOf ?? []) {
    const object = objectOf(part, components, seen);
    if (object !== undefined) return object;
  }
  return undefined;
}

/** The names of the schemas `schema` goes through on its way to its object (so that a cycle stops). */
function namesOnTheWay(schema: Schema): string[] {
  if (schema.$ref !== undefined) return [refName(schema.$ref)];
  return [schema.items, ...(schema.anyOf ?? schema.oneOf ?? [])].flatMap((s) =>
    s === undefined ? [] : namesOnTheWay(s),
  );
}

/** An object's properties as a list: name, required or not, type, description and rules, nested objects inside. */
export function properties(schema: Schema, components: Components, seen: Set<string> = new Set()): string {
  const items = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const required = schema.required?.includes(name) === true;
    const described = [prose(property.description), ...rules(property)].filter((part) => part !== '').join(' · ');
    const nested = objectOf(property, components, seen);
    const inner =
      nested === undefined
        ? ''
        : folded(nested, properties(nested, components, new Set([...seen, ...namesOnTheWay(property)])));
    return `<li><code class="name">${escapeHtml(name)}</code> <span class="type">${typeLabel(property)}</span>${
      required ? ' <span class="required">required</span>' : ''
    }${described === '' ? '' : `<div class="about">${described}</div>`}${inner}</li>`;
  });
  const extra =
    typeof schema.additionalProperties === 'object' && schema.properties !== undefined
      ? [`<li><em>any other name</em> <span class="type">${typeLabel(schema.additionalProperties)}</span></li>`]
      : [];
  return items.length + extra.length === 0 ? '' : `<ul class="properties">${[...items, ...extra].join('')}</ul>`;
}

/** The properties of `object` in a <details> a reader opens, headed by their count. */
function folded(object: Schema, list: string): string {
  const count = Object.keys(object.properties ?? {}).length;
  return `<details><summary>${count} ${count === 1 ? 'property' : 'properties'}</summary>${list}</details>`;
}

/**
 * A schema where a body or an answer has one: its type, description, rules
 * and properties, shown `open` (a body, a success) or, when the schema is a
 * named one, folded (most answers name the same problem schema).
 */
export function schemaBlock(schema: Schema, components: Components, open: boolean): string {
  const object = objectOf(schema, components, new Set());
  const about = [prose(schema.description), ...rules(schema)].filter((part) => part !== '').join(' · ');
  const seen = new Set(namesOnTheWay(schema));
  const list = object === undefined ? '' : properties(object, components, seen);
  return [
    `<div class="schema"><span class="type">${typeLabel(schema)}</span>`,
    about === '' ? '' : `<div class="about">${about}</div>`,
    object === undefined || list === '' ? '' : open || seen.size === 0 ? list : folded(object, list),
    '</div>',
  ].join('');
}
