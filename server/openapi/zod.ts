// OpenAPI 3.1 pieces generated from zod schemas with zod 4's z.toJSONSchema
// (JSON Schema 2020-12, which OpenAPI 3.1 uses as is), for the two documents
// this package serves: the recruitment API's (the sandbox's /openapi.json) and
// the proxy's (/api/openapi.json). Neither copies a schema by hand, so neither
// can drift from the code that parses with the same schemas.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** zod's bounds of z.int(): true of every JSON integer a client sends, noise in a document. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** Drops what a document does not need: each schema's $schema and $id, and the safe-integer bounds. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$schema' || key === '$id') continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(item as number)) continue;
    out[key] = tidy(item);
  }
  return out;
}

/** The JSON Schema of what a request sends (`input`) or of what an answer holds (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  return tidy(z.toJSONSchema(schema, { io, unrepresentable: 'any' })) as JsonSchema;
}

/**
 * components.schemas from named zod schemas: a schema used inside another
 * (an application inside an applicant) becomes a $ref to its own entry.
 */
export function componentSchemas(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io, unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
  return tidy(schemas) as Record<string, JsonSchema>;
}

/** A $ref to an entry of components.schemas. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The query parameters of a query-string schema, one per leaf: nested objects
 * become the bracket names the servers parse (`status[value]`,
 * `status[date][gte]`), which every language's HTTP client can send as they
 * are. A list that takes comma-separated values or repeated parameters is
 * documented as the comma-separated string, with its allowed values.
 */
export function queryParameters(schema: z.ZodType): JsonSchema[] {
  const input = jsonSchemaOf(schema, 'input');
  const output = jsonSchemaOf(schema, 'output');
  const parameters: JsonSchema[] = [];
  const walk = (inSchema: JsonSchema, outSchema: JsonSchema | undefined, prefix: string) => {
    const required = new Set((inSchema.required as string[] | undefined) ?? []);
    const outProperties = (outSchema?.properties ?? {}) as Record<string, JsonSchema>;
    for (const [key, property] of Object.entries((inSchema.properties ?? {}) as Record<string, JsonSchema>)) {
      const name = prefix === '' ? key : `${prefix}[${key}]`;
      if (property.type === 'object') {
        walk(property, outProperties[key], name);
        continue;
      }
      const { description, ...rest } = commaSeparated(property, outProperties[key]);
      parameters.push({
        name,
        in: 'query',
        required: required.has(key) && prefix === '',
        ...(description === undefined ? {} : { description }),
        schema: rest,
      });
    }
  };
  walk(input, output, '');
  return parameters;
}

/** A string-or-array parameter (zod's input of a comma list) as the string, naming the allowed values of its items. */
function commaSeparated(input: JsonSchema, output: JsonSchema | undefined): JsonSchema {
  const branches = input.anyOf as JsonSchema[] | undefined;
  const isList = branches?.length === 2 && branches.some((b) => b.type === 'string') && branches.some((b) => b.type === 'array');
  if (!isList) return input;
  const values = ((output?.items as JsonSchema | undefined)?.enum as string[] | undefined) ?? [];
  const allowed = values.length === 0 ? '' : `: ${values.join(', ')}`;
  const description = [`Comma-separated values${allowed}.`, input.description].filter((d) => d !== undefined).join(' ');
  return { type: 'string', description };
}
