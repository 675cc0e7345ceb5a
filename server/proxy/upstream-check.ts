// The check the proxy makes at start, before it listens: it signs in with its
// keys, asks a job-board-only call whether they are a job board's, counts
// the offers its channel lists, and asks which channels the keys may use. Only an answer that proves a configuration
// mistake stops the start (UpstreamCheckError, one line saying what is wrong
// and what to do); a service that cannot be reached, or answers something
// else, is no proof: the proxy starts and queues, as it would without the check.
//
// The job-board-only call is POST /jobboards/applicants with an empty body: a
// company's keys are refused (403 wrong_client_kind) and keys without the
// scope too (403 missing_scope) before the body is read; a job board's get a
// validation error, and nothing is created either way. The client would not
// send a body its schema refuses, so this one call is made here, with the
// client's token and from its request budget; the others go through the client.
import {
  ApiError,
  AuthenticationError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ValidationError,
  createClient,
} from '../client/index.ts';
import type { ClientOptions, RecruitmentClient } from '../client/index.ts';
import { ErrorBody, JOBBOARD_SCOPES } from '../contract/index.ts';
import type { ProxyConfig } from './config.ts';

/** What the service's answer proved wrong. */
export type UpstreamMistake =
  'keys_refused' | 'wrong_client_kind' | 'missing_scope' | 'not_the_api' | 'channel_unknown' | 'catalogue_empty';

/** A configuration mistake the service's answer proves; its message is the one line to print. */
export class UpstreamCheckError extends Error {
  readonly mistake: UpstreamMistake;
  constructor(mistake: UpstreamMistake, message: string) {
    super(message);
    this.name = 'UpstreamCheckError';
    this.mistake = mistake;
  }
}

export type UpstreamCheck =
  | { outcome: 'checked'; offers: number }
  /** The service could not say (no answer, 5xx, rate limit, an answer we cannot read): the start goes on. */
  | { outcome: 'unverified'; reason: string };

export interface UpstreamCheckOptions {
  /** Default: a client of config.upstream (the proxy passes its own, to share its token and request budget). */
  client?: RecruitmentClient;
  /** How long the whole check may take (default 20 s): a service that waits longer proves nothing. */
  timeoutMs?: number;
}

type CheckedConfig = Pick<ProxyConfig, 'upstream' | 'channel' | 'allowEmptyCatalogue'>;

const KEYS = 'UPSTREAM_PRIVATE_KEY/UPSTREAM_SECRET_KEY';
const SCOPES = JOBBOARD_SCOPES.join(', ');

/** A client of the configured service with its keys (UPSTREAM_URL, UPSTREAM_PRIVATE_KEY, UPSTREAM_SECRET_KEY), and `more` of its options. */
export function upstreamClient(
  upstream: ProxyConfig['upstream'],
  more: Omit<ClientOptions, 'baseUrl' | 'privateKey' | 'secretKey'> = {},
): RecruitmentClient {
  return createClient({
    baseUrl: upstream.url,
    privateKey: upstream.privateKey,
    secretKey: upstream.secretKey,
    ...more,
  });
}

/** What the configured keys and channel are worth to the service; throws UpstreamCheckError on a proven mistake. */
export async function checkUpstream(config: CheckedConfig, options: UpstreamCheckOptions = {}): Promise<UpstreamCheck> {
  const client = options.client ?? upstreamClient(config.upstream);
  const signal = AbortSignal.timeout(options.timeoutMs ?? 20_000);
  try {
    return await check(config, client, signal);
  } catch (error) {
    if (error instanceof UpstreamCheckError) throw error;
    const proven = provenMistake(error, config);
    if (proven !== undefined) throw proven;
    return { outcome: 'unverified', reason: error instanceof Error ? error.message : String(error) };
  }
}

async function check(config: CheckedConfig, client: RecruitmentClient, signal: AbortSignal): Promise<UpstreamCheck> {
  const token = await client.tokens.get(signal);

  // A job board's keys, with the scope to deliver?
  await client.budget.acquire('high', signal);
  const response = await fetch(`${config.upstream.url}/jobboards/applicants`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: '{}',
    signal,
  });
  const probe = ErrorBody.safeParse(await response.json().catch(() => undefined));
  const code = probe.success ? probe.data.error.code : undefined;
  if (response.status === 403 && code === 'wrong_client_kind') {
    const page = await client.campaigns.list({ per_page: 1 }, { priority: 'high', signal }).catch(() => undefined);
    const company = page?.data[0] === undefined ? '' : ` (company ${page.data[0].company_id})`;
    throw new UpstreamCheckError(
      'wrong_client_kind',
      `${KEYS} are a company's API keys${company}, not a job board's: create a job-board API client (scopes ${SCOPES}) in the recruitment service, and set its keys. A company's keys read the company's own offers but cannot deliver a single application.`,
    );
  }
  if (response.status === 403 && code === 'missing_scope')
    throw lacksScope(probe.success ? probe.data.error.message : '');

  // Does the channel list offers? The ones the catalogue syncs: online, broadcast on it.
  const { data, pagination } = await client.campaigns.list(
    { channels: [config.channel], status: ['online'], per_page: 1 },
    { priority: 'high', signal },
  );
  const offers = Math.max(pagination['total-count'], data.length);

  // Is it the keys' channel? Asked even when it lists offers: another board's channel lists the offers
  // broadcast on both boards, and the proxy would show them and send their applications as this board's.
  const known = await channelsOfKeys(client, signal);
  if (known.length > 0 && !known.includes(config.channel)) {
    throw new UpstreamCheckError(
      'channel_unknown',
      `JOBBOARD_CHANNEL=${config.channel} is not a channel of these keys (theirs: ${known.join(', ')}): set JOBBOARD_CHANNEL to your job board's channel value, as given with your keys.`,
    );
  }
  if (offers > 0) return { outcome: 'checked', offers };
  if (!config.allowEmptyCatalogue) {
    throw new UpstreamCheckError(
      'catalogue_empty',
      `JOBBOARD_CHANNEL=${config.channel} lists no online offer: check the channel value given with your keys; if your board legitimately starts with no offer, start with --allow-empty-catalogue (or ALLOW_EMPTY_CATALOGUE=true).`,
    );
  }
  return { outcome: 'checked', offers: 0 };
}

/**
 * The channel values the keys may use (GET /channels). Empty when the
 * service lists none, or refuses the list to a job board's keys (a 4xx that
 * proves no mistake): then there is nothing to compare the channel with.
 */
async function channelsOfKeys(client: RecruitmentClient, signal: AbortSignal): Promise<string[]> {
  try {
    return [...new Set((await client.channels.list({ priority: 'high', signal })).map((c) => c.value))];
  } catch (error) {
    if (error instanceof PermissionError && error.code !== 'missing_scope') return [];
    if (error instanceof NotFoundError || error instanceof ValidationError) return [];
    throw error;
  }
}

function lacksScope(said: string): UpstreamCheckError {
  return new UpstreamCheckError(
    'missing_scope',
    `${KEYS} are a job-board API client's without a scope the proxy needs (403 missing_scope: ${said}): give that client the scopes ${SCOPES} in the recruitment service, then start again.`,
  );
}

/** The mistake a client error proves, if it proves one: keys refused, a scope missing, no API at that URL. */
function provenMistake(error: unknown, config: CheckedConfig): UpstreamCheckError | undefined {
  if (!(error instanceof ApiError) || error instanceof RateLimitError) return undefined;
  if (error instanceof AuthenticationError) {
    return new UpstreamCheckError(
      'keys_refused',
      `${KEYS} were refused by the recruitment API at ${config.upstream.url} (${error.status ?? '-'} ${error.code}): no API client has this pair. Copy both keys of your job-board API client again, the secret key being the one issued with that private key.`,
    );
  }
  if (error instanceof PermissionError && error.code === 'missing_scope')
    return lacksScope(
      error.details[0]?.message ? `This API client lacks the scope ${error.details[0].message}.` : error.message,
    );
  if (error instanceof NotFoundError && /\/jwt$/.test(error.url)) {
    return new UpstreamCheckError(
      'not_the_api',
      `UPSTREAM_URL ${config.upstream.url} answered 404 to POST /jwt: it is not the recruitment API's root. Set UPSTREAM_URL to the API's address ending in /v2, as given with your keys.`,
    );
  }
  return undefined;
}

/**
 * After a start the service could not check (unverified), checks again every
 * `intervalMs` until it can say: a mistake found then cannot stop a process
 * that already serves, so it is handed to `onMistake` (the proxy blocks
 * delivery on a company's keys or a missing scope, and logs the others).
 */
export function recheckUntilVerified(
  run: () => Promise<UpstreamCheck>,
  onMistake: (error: UpstreamCheckError) => void,
  intervalMs: number,
): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const again = () => {
    timer = setTimeout(() => {
      run().then(
        (check) => {
          if (check.outcome === 'unverified' && !stopped) again();
        },
        (error: unknown) => {
          if (!stopped && error instanceof UpstreamCheckError) onMistake(error);
        },
      );
    }, intervalMs);
    timer.unref();
  };
  again();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
