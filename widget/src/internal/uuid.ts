/**
 * A random UUID v4 for the Idempotency-Key. `crypto.randomUUID` exists only in
 * secure contexts (elsewhere the method is absent), and a board may still be
 * served over plain http.
 */
export function uuid(): string {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return h.replace(/(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}
