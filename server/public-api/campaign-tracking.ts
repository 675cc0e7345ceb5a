// Campaign tracking: the UTM parameters of the visit's landing URL, which the
// widget keeps for the session and posts with the apply form under these
// exact names. Defined once here, with no imports, so the browser bundle can
// take it whole; the proxy checks, stores and forwards them.

/** The form names (and landing URL parameters) kept, in the order they are shown to the company. */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** The campaign parameters of one application; absent ones are left out. */
export type Utm = Partial<Record<UtmField, string>>;

/** Longest value taken, in characters. */
export const MAX_UTM_CHARS = 200;

/** Printable characters only: no control or format characters (\p{C}: C0, DEL, C1, bidi overrides...), no line or paragraph separators. */
export const UTM_VALUE = /^[^\p{C}\u2028\u2029]*$/u;
