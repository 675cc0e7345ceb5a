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
