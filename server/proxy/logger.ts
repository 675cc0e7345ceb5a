// The proxy's logger: pino, JSON lines on stdout. Personal data never reaches
// a log line: values under these keys are replaced at any depth wherever a
// module logs an object, byte buffers (file contents) are dropped, and
// modules log an application's reference id instead of its fields.
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { PERSONAL_FIELD_KEYS } from '../public-api/application-form.ts';
import { stdoutLines } from './log-destination.ts';

/**
 * Keys whose values are personal data or secrets, redacted at any depth:
 * every key of a field the form's table marks personal, and the others below.
 */
export const SENSITIVE_KEYS: ReadonlySet<string> = new Set([
  ...PERSONAL_FIELD_KEYS,
  // Personal data under the recruitment API's own names: the address a
  // returning candidate applies with, a comment's text, a file's base64.
  'applicant_email',
  'comment',
  'content',
  'captcha_token',
  'private_key',
  'secret_key',
  'privateKey',
  'secretKey',
  'token',
  'password',
  'authorization',
  'cookie',
]);

/**
 * Paths pino's own redaction handles: headers, and the sensitive keys at the
 * top level, which also covers child logger bindings (the log formatter below
 * does not see those). Fixed paths only: wildcard paths are costly on every line.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...SENSITIVE_KEYS,
];

export const REDACTED = '[redacted]';
const MAX_DEPTH = 8;

/**
 * A copy of `value` with sensitive keys and byte buffers redacted; the same
 * object when nothing needed it. Walks plain objects and arrays only (Errors
 * and raw requests are left to pino's serializers). A walk over the keys of
 * a log object costs far less than pino's wildcard redaction of the same keys
 * at three depths (BENCHMARKS.md, "Figures behind the code").
 */
export function redactPersonalData(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return '[redacted bytes]';
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const clean = redactPersonalData(item, depth + 1);
      if (clean !== item) (copy ??= [...value])[i] = clean;
    });
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const clean = SENSITIVE_KEYS.has(key) ? REDACTED : redactPersonalData(item, depth + 1);
    if (clean !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = clean;
  }
  return copy ?? value;
}

export interface LoggerOptions {
  level?: string;
  /**
   * Where lines go; tests pass a stream to read them. By default stdout, the
   * lines of each turn of the event loop written together at its end
   * (log-destination.ts); what is left is written when the process exits,
   * and stop() flushes too.
   */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'jobboard-connector-proxy' },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      formatters: {
        log: (object) => redactPersonalData(object) as Record<string, unknown>,
      },
      timestamp: isoTimeOncePerMillisecond(),
    },
    options.destination ?? stdoutLines(),
  );
}

/**
 * pino's `isoTime`, formatting the date once per millisecond: under load
 * several request lines share a millisecond, and formatting dates was a
 * measurable share of the proxy's CPU time.
 */
function isoTimeOncePerMillisecond(): () => string {
  let lastMs = -1;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}
