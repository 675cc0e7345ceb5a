import assert from 'node:assert/strict';

// What a page would fetch, from any origin: scripts, style sheets, fonts,
// images, frames, CSS imports and url()s (data: URLs aside; a link a reader
// may follow is not fetched, and not counted).
export function resourcesFetched(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<script\b[^>]*>/gi)) found.push(match[0]);
  for (const match of html.matchAll(
    /<(link|img|iframe|frame|embed|object|source|audio|video|track|input)\b[^>]*\b(href|src|srcset|data)\s*=\s*["']?([^"'\s>]+)/gi,
  )) {
    if (!match[3]!.startsWith('data:') && !match[3]!.startsWith('#')) found.push(match[0]);
  }
  for (const match of html.matchAll(/@import[^;]*;|url\(\s*(?!["']?(?:data:|#))[^)]*\)/gi)) found.push(match[0]);
  return found;
}

/**
 * Fetches a reference page (GET /docs of the sandbox, GET /api/docs of the
 * proxy) and asserts what both promise: static HTML that fetches nothing,
 * under a policy that allows no fetch. Answers the HTML for the caller's own
 * checks of its content.
 */
export async function fetchStaticReference(
  url: string,
  fetchPage: (url: string) => Promise<Response> = fetch,
): Promise<string> {
  const response = await fetchPage(url);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(
    response.headers.get('content-security-policy') ?? '',
    /^default-src 'none'; style-src 'unsafe-inline'; img-src data:/,
  );
  const html = await response.text();
  assert.deepEqual(resourcesFetched(html), []);
  return html;
}
