// Small parts of the configuration's parsing shared by its modules (config.ts, webhooks/config.ts).
import { z } from 'zod';

/** The names of this machine that an http:// URL may use (anything else must be https). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A text variable: trimmed, and unset when empty. */
export const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** ", with its scheme, like https://…": said when a URL was written without its http(s):// (api.example/v2). */
export function schemeHint(input: unknown, example: string): string {
  return typeof input === 'string' && input !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(input)
    ? `, with its scheme: write https://${input} (like ${example})`
    : '';
}
