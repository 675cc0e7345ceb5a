// The addresses the widget sends requests to or links to come from attributes
// a board's server may have filled from a link someone crafted, and from the
// proxy's /api/config: only http(s) ones, or ones relative to the page ("/jobs",
// ""), are used. A "javascript:" consent link would run in the board's page.

/** Whether `value` is an http(s) URL, or a URL relative to the page. No DOM: server rendering may call it. */
export function isWebUrl(value: string): boolean {
  try {
    // Any http base: a relative value takes its scheme, an absolute one keeps its own.
    return /^https?:$/.test(new URL(value, 'http://x').protocol);
  } catch {
    return false;
  }
}

/** The last value of each source warned about. */
const warned: Record<string, string> = {};

/**
 * `value` when it is a web URL (isWebUrl); otherwise undefined, after one
 * console warning per source and value naming the source and what to write
 * (every byte of it is in the bundle: short).
 */
export function webUrlOrWarn(value: string, source: string): string | undefined {
  if (isWebUrl(value)) return value;
  if (warned[source] !== value)
    console.warn(`jobboard: ${source}="${(warned[source] = value)}" is not used: write an http(s) URL or a path`);
  return undefined;
}
