// OpenAPI 3.1 pieces generated from zod schemas with zod 4's z.toJSONSchema
// (JSON Schema 2020-12, which OpenAPI 3.1 uses as is), for the two documents
// this package serves: the recruitment API's (the sandbox's /openapi.json) and
// the proxy's (/api/openapi.json). Neither copies a schema by hand, so neither
// can drift from the code that parses with the same schemas.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** zod's bounds of z.int(): the safe integers. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * Drops what a document does not need: each schema's $schema and $id, and in
 * answers the safe-integer bounds (noise there). A request keeps them: the
 * servers refuse an integer beyond them, and the document says so.
 */
function tidy(value: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(value)) return value.map((item) => tidy(item, io));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$schema' || key === '$id') continue;
    if (io === 'output' && (key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(item as number))
      continue;
    out[key] = tidy(item, io);
  }
  return out;
}

/** The JSON Schema of what a request sends (`input`) or of what an answer holds (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  return tidy(z.toJSONSchema(schema, { io, unrepresentable: 'any' }), io) as JsonSchema;
}

/**
 * components.schemas from named zod schemas: a schema used inside another
 * (an application inside an applicant) becomes a $ref to its own entry.
 */
export function componentSchemas(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  return tidy(schemas, io) as Record<string, JsonSchema>;
}

/** A $ref to an entry of components.schemas. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The query parameters of a query-string schema, one per leaf: nested objects
 * become the bracket names the servers parse (`status[value]`,
 * `status[date][gte]`), which every language's HTTP client can send as they
 * are. A list that takes comma-separated values or repeated parameters is
 * documented as an array sent comma-separated (`style: form`, `explode:
 * false`), its items with their allowed values.
 */
export function queryParameters(schema: z.ZodType): JsonSchema[] {
  const input = jsonSchemaOf(schema, 'input');
  const output = jsonSchemaOf(schema, 'output');
  const parameters: JsonSchema[] = [];
  // A nested object's description (a rule on its parameters) goes with each of them.
  const walk = (inSchema: JsonSchema, outSchema: JsonSchema | undefined, prefix: string, rules: string[]) => {
    const required = new Set((inSchema.required as string[] | undefined) ?? []);
    const outProperties = (outSchema?.properties ?? {}) as Record<string, JsonSchema>;
    for (const [key, property] of Object.entries((inSchema.properties ?? {}) as Record<string, JsonSchema>)) {
      const name = prefix === '' ? key : `${prefix}[${key}]`;
      if (property.type === 'object') {
        walk(
          property,
          outProperties[key],
          name,
          typeof property.description === 'string' ? [...rules, `${property.description}.`] : rules,
        );
        continue;
      }
      const { description, ...rest } = property;
      const list = commaSeparated(property, outProperties[key]);
      const said = [...rules, ...(typeof description === 'string' ? [description] : [])].join(' ');
      parameters.push({
        name,
        in: 'query',
        required: required.has(key) && prefix === '',
        ...(said === '' ? {} : { description: said }),
        ...(list === undefined ? { schema: rest } : { style: 'form', explode: false, schema: list }),
      });
    }
  };
  walk(input, output, '', []);
  return parameters;
}

/** A string-or-array parameter (zod's input of a comma list) as an array of the items the server parses it into; undefined for any other. */
function commaSeparated(input: JsonSchema, output: JsonSchema | undefined): JsonSchema | undefined {
  const branches = input.anyOf as JsonSchema[] | undefined;
  const isList =
    branches?.length === 2 && branches.some((b) => b.type === 'string') && branches.some((b) => b.type === 'array');
  if (!isList) return undefined;
  return { type: 'array', items: (output?.items as JsonSchema | undefined) ?? { type: 'string' } };
}
