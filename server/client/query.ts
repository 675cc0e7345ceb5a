// Query strings as the API reads them: nested objects in bracket notation
// (`status[value]=hired&status[date][gte]=2024-01-01`), arrays comma-joined
// (`embed=address,tags`), booleans as true/false, empty values left out
// ("Empty parameters are ignored").

type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number)[] | { readonly [key: string]: QueryValue };

export function toSearchParams(query: object | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (query !== undefined) append(params, '', query as { readonly [key: string]: QueryValue });
  return params;
}

function append(params: URLSearchParams, prefix: string, value: QueryValue): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    if (value.length > 0) params.append(prefix, value.join(','));
    return;
  }
  if (typeof value === 'object') {
    for (const [key, inner] of Object.entries(value))
      append(params, prefix === '' ? key : `${prefix}[${key}]`, inner as QueryValue);
    return;
  }
  const text = String(value);
  if (text !== '') params.append(prefix, text);
}
