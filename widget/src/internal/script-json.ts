/** JSON for the text of a script element: a "</script" or "<!--" in a string must neither end it nor open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
