// The widget's runtime of `msg` and `str`, in place of @lit/localize's: the
// builds and the browser tests resolve `@lit/localize` to this module, so the
// call sites keep importing from '@lit/localize', which is what
// `lit-localize extract` looks for. It does what the widget uses of the
// original (runtime mode, string and `str` messages, ids hashed from the
// English text as the extractor hashes them) in a fraction of its bytes.

/** A `str`-tagged message: the English text's parts and its values; in a translation, the values are the source's indices. */
export interface StrResult {
  strTag: true;
  strings: readonly string[];
  values: readonly unknown[];
}

/** A language's translations by message id, as lit-localize generates them. */
export type Templates = Record<string, string | StrResult>;

export const str = (strings: TemplateStringsArray, ...values: unknown[]): StrResult => ({
  strTag: true,
  strings,
  values,
});

/** Set by the script-tag build, which keys the translations by a shorter prefix of their ids (vite.config.ts). */
declare const __MESSAGE_ID_LENGTH__: number | undefined;
const idLength = typeof __MESSAGE_ID_LENGTH__ === 'number' ? __MESSAGE_ID_LENGTH__ : undefined;

let active: Templates = {};

/** Makes `templates` the translations every `msg` reads (none: English). */
export function useTemplates(templates: Templates): void {
  active = templates;
}

/** The 64-bit FNV-1a hash of `text` in hex, in 16-bit halves as @lit/localize computes it. */
function fnv1a64(text: string): string {
  // The offset basis 0xcbf29ce484222325, lowest 16 bits first.
  let [v0, v1, v2, v3] = [0x2325, 0x8422, 0x9ce4, 0xcbf2];
  for (let i = 0; i < text.length; i += 1) {
    v0 ^= text.charCodeAt(i);
    // Times the prime 0x100000001b3: 435 (0x1b3) times each half, plus the lower halves shifted by 40 bits.
    const t0 = v0 * 435;
    const t1 = v1 * 435 + (t0 >>> 16);
    const t2 = v2 * 435 + (v0 << 8) + (t1 >>> 16);
    v3 = (v3 * 435 + (v1 << 8) + (t2 >>> 16)) & 65535;
    v0 = t0 & 65535;
    v1 = t1 & 65535;
    v2 = t2 & 65535;
  }
  return [v3, v2, v1, v0].map((half) => half.toString(16).padStart(4, '0')).join('');
}

const ids = new Map<unknown, string>();

/** The id lit-localize gives a message: `s` and the hash of its English parts joined by U+001E. */
function messageId(strings: string | readonly string[]): string {
  let id = ids.get(strings);
  if (id === undefined) {
    id = `s${fnv1a64(typeof strings === 'string' ? strings : strings.join('\x1e'))}`.slice(0, idLength);
    ids.set(strings, id);
  }
  return id;
}

/** A message in the active language: its translation, else its English text, with the values put in. */
export function msg(template: string | StrResult, options?: { id?: string; desc?: string }): string {
  const source = typeof template === 'string' ? template : template.strings;
  const localized = active[options?.id ?? messageId(source)] ?? template;
  if (typeof localized === 'string') return localized;
  const values = (template as StrResult).values;
  // A translation's values are the indices of the source's, which it may reorder.
  const order = localized === template ? undefined : (localized.values as number[]);
  return localized.strings.reduce((text, part, i) => `${text}${String(values[order ? order[i - 1]! : i - 1])}${part}`);
}
