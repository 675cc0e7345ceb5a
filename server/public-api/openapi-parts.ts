// The parts the operations of the proxy's OpenAPI document share
// (openapi.ts): contents, problem answers, cache headers and parameters.
import type { ProblemCode } from './problems.ts';
import { PROBLEMS } from './problems.ts';
import { jsonSchemaOf, schemaRef } from '../openapi/zod.ts';
import type { JsonSchema } from '../openapi/zod.ts';
import { OfferId } from './schemas.ts';
import { LOCALES } from '../contract/index.ts';

export const json = (name: string) => ({ 'application/json': { schema: schemaRef(name) } });
export const text = (type: string) => ({ [type]: { schema: { type: 'string' } } });
export const problemContent = { 'application/problem+json': { schema: schemaRef('Problem') } };

/** The answers of some problem codes, one per status, each naming its codes (an unexpected failure is always possible). */
export function problems(...codes: ProblemCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of [...codes, 'internal_error' as const])
    byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, of]) => {
      const retryAfter = of.some(
        (code) =>
          code === 'rate_limited' ||
          code === 'server_busy' ||
          code === 'storage_full' ||
          code === 'delivery_blocked' ||
          code === 'not_ready',
      );
      return [
        status,
        {
          description: of.map((code) => `\`${code}\`: ${PROBLEMS[code].title}`).join('; '),
          ...(retryAfter
            ? {
                headers: {
                  'Retry-After': {
                    description: 'Seconds to wait before trying again',
                    schema: { type: 'string', pattern: '^[0-9]+$' },
                  },
                },
              }
            : {}),
          content: problemContent,
        },
      ];
    }),
  );
}

export const ifNoneMatch = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag of an earlier answer: 304 when it is still current.',
  schema: { type: 'string' },
};
export const cached = (cacheControl: string) => ({
  ETag: { required: true, schema: { type: 'string' } },
  'Cache-Control': { required: true, schema: { type: 'string', example: cacheControl } },
});
export const notModified = { description: 'Not modified: If-None-Match holds the current ETag' };
export const campaignId = {
  name: 'id',
  in: 'path',
  required: true,
  description: "The campaign's id",
  schema: jsonSchemaOf(OfferId, 'input'),
};

/** Problem answers with what some statuses mean on this operation, beyond their codes' titles. */
export function explained(
  answers: Record<string, JsonSchema>,
  notes: Record<number, string>,
): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(answers).map(([status, answer]) => {
      const note = notes[Number(status)];
      return [
        status,
        note === undefined ? answer : { ...answer, description: `${String(answer.description)}. ${note}` },
      ];
    }),
  );
}

export function replayed(): JsonSchema {
  return {
    'Idempotent-Replayed': {
      description: 'true when this answer replays the first one given for the same Idempotency-Key',
      schema: { type: 'string', const: 'true' },
    },
  };
}

/** The `lang` query parameter of the pages for people (the receipt, the dashboard): a language they are written in. */
export const pageLang = {
  name: 'lang',
  in: 'query',
  required: false,
  description: "The page's language; another value is ignored",
  schema: { type: 'string', enum: [...LOCALES] },
};
