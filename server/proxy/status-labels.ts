// STATUS_LABELS: the board's own words for the company's status values, the
// only way a status reaches a candidate's receipt. The file maps a status
// value (as the recruitment service spells it) to a label per language:
//   { "interview": { "en": "Interview planned", "fr": "Entretien prévu" } }
// A value the file does not map is never shown. Read and checked once, at
// start-up: a wrong file stops the start with what to fix.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { LOCALES } from '../contract/index.ts';
import type { Locale } from '../contract/index.ts';

const LabelText = z
  .string({ error: 'must be a text' })
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');

/** Labels of one status, in the languages a label may be written in: the widget's. */
const Labels = z.strictObject(
  { en: LabelText.optional(), fr: LabelText.optional(), es: LabelText.optional() } satisfies Record<Locale, unknown>,
  {
    error: 'must be an object of labels by language',
  },
);

// A key the record refuses (an empty one) is its own issue, not the file's shape.
const StatusLabelsFile = z
  .record(z.string(), Labels, { error: 'must be one JSON object' })
  .refine((file) => !Object.hasOwn(file, ''), {
    message: 'is not a status value: a status value must not be empty',
    path: [''],
  });

/** Status value → label per language (some languages may be missing: the page then uses English, else shows nothing). */
export type StatusLabels = ReadonlyMap<string, Partial<Record<Locale, string>>>;

/** Reads STATUS_LABELS; throws an Error whose message says what is wrong and how to write the file. */
export function readStatusLabels(path: string): StatusLabels {
  const example = `like {"interview": {"en": "Interview planned", "fr": "Entretien prévu"}}`;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `cannot read ${path} as JSON (${(error as Error).message}); write one object of status value → labels by language, ${example}`,
      { cause: error },
    );
  }
  const parsed = StatusLabelsFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [status, ...rest] = issue.path.map(String);
    const where = status === undefined ? 'the file' : [`"${status}"`, ...rest].join('.');
    const message =
      issue.code === 'unrecognized_keys'
        ? `has a language this proxy does not know (${issue.keys.join(', ')}); known: ${LOCALES.join(', ')}`
        : issue.message;
    throw new Error(
      `${path}: ${where} ${message}; write one object of status value → labels by language (${LOCALES.join(', ')}), ${example}`,
    );
  }
  return new Map(Object.entries(parsed.data));
}

/** The label of a status in a language (English when that language has none); undefined when the board does not map it. */
export function statusLabel(labels: StatusLabels, status: string | null, lang: Locale): string | undefined {
  if (status === null) return undefined;
  const label = labels.get(status);
  return label?.[lang] ?? label?.en;
}
