// The addresses the widget sends requests to or links to come from attributes
// a board's server may have filled from a link someone crafted, and from the
// proxy's /api/config: only http(s) ones, or ones relative to the page ("/jobs",
// ""), are used. A "javascript:" consent link would run in the board's page.

/** Any http base: a relative value takes its scheme, an absolute one keeps its own. No DOM, so server rendering can call it too. */
const RELATIVE_BASE = 'http://relative.invalid/';

/** Whether `value` is an http(s) URL, or a URL relative to the page. */
export function isWebUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, RELATIVE_BASE).protocol);
  } catch {
    return false;
  }
}

const warned = new Set<string>();

/**
 * `value` when it is a web URL (isWebUrl); otherwise undefined, after one
 * console warning per source and value, naming where the value came from and
 * saying what to write there.
 */
export function webUrlOrWarn(value: string, source: string, whatToWrite: string): string | undefined {
  if (isWebUrl(value)) return value;
  const key = `${source}\n${value}`;
  if (!warned.has(key)) {
    warned.add(key);
    console.warn(`jobboard: ${source} "${value.slice(0, 200)}" is not used: it is not an http(s) URL. ${whatToWrite}`);
  }
  return undefined;
}
