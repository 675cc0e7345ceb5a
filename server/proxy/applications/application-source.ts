// The application's source (APPLICATION_SOURCE) and the note the company
// reads with each application: which board it came through when the company
// refused that source, and the campaign that brought the candidate
// (TRACK_UTM). A company's sources list is its own: a board whose source is
// not in it still delivers, once more without the source, and the company is
// told in the note where the application came from.
import { ApiError } from '../../client/index.ts';
import { UTM_FIELDS } from '../../public-api/campaign-tracking.ts';
import type { Utm } from '../../public-api/campaign-tracking.ts';
import type { OutboxStore } from '../storage/outbox/application-store.ts';

/** How long a company's refusal of the source is remembered: a company that adds the source gets it back the next day. */
export const SOURCE_REFUSAL_MS = 24 * 60 * 60 * 1000;

/** What delivery needs to send the source, and to remember the companies that refuse it. */
export interface Sending {
  /** APPLICATION_SOURCE: the `source` of every application. */
  source: string;
  /** The board's name in the note (JOBBOARD_CHANNEL). */
  board: string;
  /** Where refusals are remembered (shared by every instance on the database). */
  refusals: Pick<OutboxStore, 'sourceRefused' | 'rememberSourceRefusal'>;
  /** How long a refusal is remembered (ms). */
  refusedForMs: number;
  now(): number;
}

/**
 * True when the service definitely refused the application because of its
 * source, and so created nothing: a 4xx answer (never a 5xx, a timeout or a
 * cut connection, which may hide a created application) whose code or
 * field names the source.
 */
export function refusesSource(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status === undefined || error.status < 400 || error.status >= 500)
    return false;
  return error.code === 'source_not_allowed' || error.details.some((d) => /(^|\.)source$/.test(d.field));
}

/**
 * 'Came from: utm_source="…", utm_medium="…"', in UTM_FIELDS order; undefined
 * without any. Each value is quoted (a JSON string: its own quotes and
 * backslashes escaped), so that no value can read as another pair.
 */
export function cameFrom(utm: Utm | null): string | undefined {
  if (utm === null) return undefined;
  const pairs = UTM_FIELDS.flatMap((name) => (utm[name] === undefined ? [] : [`${name}=${JSON.stringify(utm[name])}`]));
  return pairs.length === 0 ? undefined : `Came from: ${pairs.join(', ')}`;
}

/** The note the company reads after the cover letter; undefined when there is nothing to say. */
export function companyNote(options: {
  utm: Utm | null;
  withoutSource?: { source: string; board: string };
}): string | undefined {
  const lines: string[] = [];
  const dropped = options.withoutSource;
  if (dropped !== undefined) {
    lines.push(
      `Applied through the job board ${dropped.board}. Its source "${dropped.source}" is not in your sources list, so this application has no source; add it to see where applications come from.`,
    );
  }
  const came = cameFrom(options.utm);
  if (came !== undefined) lines.push(came);
  return lines.length === 0 ? undefined : lines.join('\n');
}
