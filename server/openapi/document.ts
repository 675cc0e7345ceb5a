// What both documents of this package open with: the OpenAPI version they
// are written in and the package's licence, stated once.

/** The `openapi` and `info` members of a document. */
export function documentOpening(
  title: string,
  version: string,
  description: string,
): { openapi: string; info: Record<string, unknown> } {
  return {
    openapi: '3.1.0',
    info: { title, version, license: { name: 'MIT', identifier: 'MIT' }, description },
  };
}
