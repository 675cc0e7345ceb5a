// What the sandbox saw, for tests and partners to prove a client's behaviour
// at the wire (GET /_sandbox/stats, GET /_sandbox/creates): per API client,
// the requests in the rate window, the most seen in any window, in all, and
// how many were refused as rate-limited; and every create request
// (POST /jobboards/applicants, /applications, /applicants) with the email and
// campaigns it names and how it was answered, faulted ones included. A
// duplicate a service quietly accepts shows here even when the database
// cannot tell it from a second candidate.
import { AsyncLocalStorage } from 'node:async_hooks';
export interface ClientTraffic {
  client_id: number;
  /** Requests counted in the sliding window ending now. */
  requests_in_window: number;
  /** The most requests counted in any window since the start (or the last reset). */
  max_in_window: number;
  /** Every authenticated request, refused ones included. */
  total: number;
  rate_limited: number;
}

export interface CreateRequest {
  /** Order of arrival (1, 2, ...): a create after another is later in this order. */
  seq: number;
  at: string;
  method: string;
  path: string;
  /** The answer's status; 0 when the connection closed without one (null while it is handled). */
  status: number | null;
  /**
   * The applications this request created, committed: what the service did,
   * even when its answer never reached the caller (a timeout, a dropped connection).
   */
  application_ids: number[];
  /** The API client, null when the request was answered before authentication (a fault, a bad token). */
  client_id: number | null;
  /** The applicant's email as the body names it (applicant.email or applicant_email), null when it names none. */
  email: string | null;
  campaign_ids: number[];
  /**
   * True for a body of `{}`: it names no applicant and no campaign, so it can
   * create nothing. The proxy's start check sends it to learn whether its keys
   * are a job board's; listed apart so that its 400 does not read as a failed
   * application.
   */
  probe: boolean;
}

const CREATE_PATHS = new Set(['/jobboards/applicants', '/applications', '/applicants']);

/** The email and campaigns a create body names, whatever else it holds, and whether it is a probe (`{}`). */
function namedIn(body: unknown): { email: string | null; campaign_ids: number[]; probe: boolean } {
  const record = (value: unknown): Record<string, unknown> =>
    value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const top = record(body);
  const probe = body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
  const applicant = record(top.applicant);
  const email =
    typeof applicant.email === 'string'
      ? applicant.email
      : typeof top.applicant_email === 'string'
        ? top.applicant_email
        : null;
  const nested = Array.isArray(applicant.applications) ? applicant.applications.map((a) => record(a).campaign_id) : [];
  const campaign_ids = [top.campaign_id, ...nested].filter((id): id is number => typeof id === 'number');
  return { email: email === null ? null : email.trim().toLowerCase(), campaign_ids, probe };
}

export class TrafficLog {
  readonly #windowMs: number;
  readonly #clients = new Map<number, { hits: number[]; max: number; total: number; rateLimited: number }>();
  #creates: CreateRequest[] = [];
  /** The create request being handled, through every await of its handling. */
  readonly #current = new AsyncLocalStorage<CreateRequest>();

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  isCreate(method: string, path: string): boolean {
    return method === 'POST' && CREATE_PATHS.has(path);
  }

  /** One authenticated request of a client: counted, or refused as rate-limited. */
  request(clientId: number, refused: boolean, nowMs = Date.now()): void {
    let client = this.#clients.get(clientId);
    if (client === undefined) {
      client = { hits: [], max: 0, total: 0, rateLimited: 0 };
      this.#clients.set(clientId, client);
    }
    client.total += 1;
    if (refused) {
      client.rateLimited += 1;
      return;
    }
    client.hits.push(nowMs);
    this.#trim(client.hits, nowMs);
    client.max = Math.max(client.max, client.hits.length);
  }

  /**
   * Records a create request as it arrives and runs its handling (`next`) in
   * its context, so that noteCreated reaches it; `finish` sets its status
   * and what its body named, once read.
   */
  begin(
    entry: Pick<CreateRequest, 'at' | 'method' | 'path'>,
    next: () => void,
  ): { finish(status: number, clientId: number | null, body: unknown): void } {
    const record: CreateRequest = {
      seq: this.#creates.length + 1,
      ...entry,
      status: null,
      client_id: null,
      email: null,
      campaign_ids: [],
      application_ids: [],
      probe: false,
    };
    this.#creates.push(record);
    this.#current.run(record, next);
    return {
      finish(status, clientId, body) {
        Object.assign(record, { status, client_id: clientId, ...namedIn(body) });
      },
    };
  }

  /** An application the create request being handled has created. */
  noteCreated(applicationId: number): void {
    this.#current.getStore()?.application_ids.push(applicationId);
  }

  stats(nowMs = Date.now()): { window_ms: number; clients: ClientTraffic[] } {
    const clients = [...this.#clients].map(([client_id, client]) => {
      this.#trim(client.hits, nowMs);
      return {
        client_id,
        requests_in_window: client.hits.length,
        max_in_window: client.max,
        total: client.total,
        rate_limited: client.rateLimited,
      };
    });
    return { window_ms: this.#windowMs, clients: clients.sort((a, b) => a.client_id - b.client_id) };
  }

  /** Create requests, oldest first, those naming `email` only when given (case-insensitive). */
  creates(email?: string): CreateRequest[] {
    const wanted = email?.trim().toLowerCase();
    return wanted === undefined ? [...this.#creates] : this.#creates.filter((c) => c.email === wanted);
  }

  clear(): void {
    this.#clients.clear();
    this.#creates = [];
  }

  #trim(hits: number[], nowMs: number): void {
    while (hits.length > 0 && hits[0]! <= nowMs - this.#windowMs) hits.shift();
  }
}
