// Control characters (Unicode's Cc: the C0 set with NUL, DEL, the C1 set),
// defined once: the catalogue removes them from the service's text, the
// application form refuses them in a candidate's. No text needs them, and
// NUL breaks storage: PostgreSQL keeps it in neither text nor jsonb. No
// imports, so the browser bundle may take it whole.

/** Any control character, tab and line breaks included: what a one-line value may not hold. */
const ANY_CONTROL = /\p{Cc}/u;
/** A control character other than a text's layout (tab, LF, CR: a browser posts a textarea's line breaks as CRLF). */
const CONTROL_BUT_LAYOUT = /(?![\t\n\r])\p{Cc}/u;

/** True when a value holds a control character it may not: any, for one line; any but tab and line breaks, for several lines. */
export function hasControlCharacters(text: string, shape: 'line' | 'lines'): boolean {
  return (shape === 'line' ? ANY_CONTROL : CONTROL_BUT_LAYOUT).test(text);
}

/**
 * The text without control characters, but its tabs and line breaks:
 * CRLF and a lone CR become LF (a lone CR is an old line break; removing it
 * would join two lines), every other control character is removed.
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/(?![\t\n])\p{Cc}/gu, '');
}
