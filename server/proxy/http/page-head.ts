// The head of the pages the proxy serves to people (an applicant's receipt,
// the board's dashboard): their language, a viewport for phones, no place in
// search engines, and their own inline style, which each page's CSP allows by
// its hash.

/** From `<!doctype html>` to `</head>`: `title` comes escaped, `extra` is the page's further tags. */
export function pageHead(lang: string, title: string, style: string, extra: string[] = []): string {
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${title}</title>`,
    `<style>${style}</style>`,
    ...extra,
    '</head>',
  ].join('\n');
}
