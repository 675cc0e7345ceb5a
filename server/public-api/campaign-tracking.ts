// Campaign tracking: the UTM parameters of the visit's landing URL, which the
// widget keeps for the session and posts with the apply form under these
// exact names. Defined once here, with no imports, so the browser bundle can
// take it whole; the proxy checks, stores and forwards them. A value that
// breaks the rule is dropped, by the widget and by the proxy alike: a
// campaign link is written by whoever shares it, and must never cost a
// candidate the application.

/** The form names (and landing URL parameters) kept, in the order they are shown to the company. */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** The campaign parameters of one application; absent ones are left out. */
export type Utm = Partial<Record<UtmField, string>>;

/** Longest value taken, in characters: Unicode code points, so an emoji counts as one, as a person counts it. */
export const MAX_UTM_CHARS = 200;

/** Printable characters only: no control or format characters (\p{C}: C0, DEL, C1, bidi overrides...), no line or paragraph separators. */
export const UTM_VALUE = /^[^\p{C}\u2028\u2029]*$/u;

/** Why a value breaks the rule: longer than MAX_UTM_CHARS, or not printable (UTM_VALUE). */
export type UtmFault = 'too_long' | 'not_printable';

/** What breaks the rule in `value` (trimmed already), or null when it keeps to it. */
export function utmFaultOf(value: string): UtmFault | null {
  // Code points, not UTF-16 units (`length`), which count an emoji twice.
  if ([...value].length > MAX_UTM_CHARS) return 'too_long';
  return UTM_VALUE.test(value) ? null : 'not_printable';
}

/** The values of a landing URL or a form that keep to the rule, and the names of those dropped. */
export interface KeptUtm {
  /** Each value trimmed; blank ones are left out. */
  utm: Utm;
  /** The parameters given a value that breaks the rule, in UTM_FIELDS order, with why. */
  dropped: { name: UtmField; fault: UtmFault }[];
}

/** Reads each of UTM_FIELDS with `read` and keeps those that keep to the rule. */
export function keepUtm(read: (name: UtmField) => unknown): KeptUtm {
  const kept: KeptUtm = { utm: {}, dropped: [] };
  for (const name of UTM_FIELDS) {
    const raw = read(name);
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (value === '') continue;
    const fault = utmFaultOf(value);
    if (fault === null) kept.utm[name] = value;
    else kept.dropped.push({ name, fault });
  }
  return kept;
}
