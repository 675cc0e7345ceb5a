// The proxy's logger: pino, JSON lines on stdout. Personal data never reaches
// a log line: these paths are redacted wherever a module logs an object, and
// modules log an application's reference id instead of its fields.
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';

const PERSONAL_OR_SECRET = [
  'email',
  'applicant_email',
  'first_name',
  'last_name',
  'name_of_applicant',
  'phone',
  'phone_code',
  'phone_number',
  'bio_url',
  'cover_letter',
  'comment',
  'comments',
  'resume',
  'content',
  'captcha_token',
  'private_key',
  'secret_key',
  'privateKey',
  'secretKey',
  'token',
  'password',
];

/** Redacted at the top level and up to three levels down (pino's wildcards match one level each). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...PERSONAL_OR_SECRET.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]),
];

export interface LoggerOptions {
  level?: string;
  /** Where lines go (default stdout); tests pass a stream to read them. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'jobboard-connector-proxy' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}
