// What the proxy keeps about applications, behind three small interfaces, one
// per thing stored: the outbox (applications and their resumes), the
// idempotency keys and the apply rate counters. One ApplicationStore object
// implements the three over one database (SQLite in DATA_DIR, or PostgreSQL
// with DATABASE_URL), because "stored", "this key now points at that
// application" and "this email counted one more" must commit together
// (enqueue). Every method is async: PostgreSQL is.
import type { ApplicantFormName } from '../../../public-api/application-form.ts';
import type { Utm } from '../../../public-api/campaign-tracking.ts';
import type { JobboardApplicantInput } from '../../../contract/index.ts';
import type { DataDirLock } from '../data-dir-lock.ts';
import type { WebhookEventOptions, WebhookEventStore } from '../webhooks/webhook-store.ts';
import type { MigrationReport } from '../migrations.ts';
import type { FunnelCounting, FunnelStore } from '../funnel/funnel-store.ts';

/**
 * The campaign_id an outbox row holds for a spontaneous application (to a
 * company, with no offer). The service's campaign ids start at 1, so 0 names
 * no offer, and the column stays as both stores have it (no migration); every
 * shape the proxy shows outside says `campaign_id: null` and `kind: 'spontaneous'`.
 */
export const NO_CAMPAIGN = 0;

/** A row or event of a spontaneous application: no offer. */
export function isSpontaneous(row: { campaign_id: number }): boolean {
  return row.campaign_id === NO_CAMPAIGN;
}

/** What an application is sent to: an offer, or a company with no offer (spontaneous). */
export type ApplicationKind = 'offer' | 'spontaneous';

/** A row's offer as the proxy shows it outside (answers, webhook events, the funnel's report): no offer is `campaign_id: null`. */
export function applicationTarget(campaignId: number): { campaign_id: number | null; kind: ApplicationKind } {
  return isSpontaneous({ campaign_id: campaignId })
    ? { campaign_id: null, kind: 'spontaneous' }
    : { campaign_id: campaignId, kind: 'offer' };
}

export const OUTBOX_STATUSES = ['pending', 'delivering', 'delivered', 'rejected', 'dead'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** What was learnt about one application, kept after its personal data is gone. */
export type Outcome =
  /** POST /jobboards/applicants created the applicant with this application. */
  | 'created_applicant'
  /** The applicant existed; POST /applications created the application. */
  | 'created_application'
  /** A later attempt found the application already there: an earlier attempt had delivered it. */
  | 'found_delivered'
  /** The candidate had already applied to this campaign, or (spontaneous) was already the company's applicant (first attempt). */
  | 'already_applied'
  /** The service refused the content (field errors). */
  | 'upstream_rejected'
  /** The campaign no longer takes applications on this board. */
  | 'campaign_closed'
  /** Not delivered within DEAD_LETTER_AFTER_HOURS. */
  | 'expired'
  /** Its personal data was erased at the candidate's request before it was delivered: it never will be. */
  | 'erased'
  /** Its resume was not where the store keeps it (deleted from outside the proxy): dead-lettered at once, for an operator. */
  | 'resume_missing';

/** Why a row's personal data was erased before delivery. */
export type ErasedBy =
  /** PERSONAL_DATA_RETENTION_DAYS after it was dead-lettered or refused. */
  | 'retention'
  /** `outbox erase --email`: the candidate asked. */
  | 'request';

/**
 * The personal data of one application, kept only until it is delivered: the
 * applicant fields the form fills (and its language), typed by the contract's
 * applicant input, and the cover letter, sent upstream as a comment.
 */
export interface ApplicationPayload {
  applicant: Pick<JobboardApplicantInput, ApplicantFormName | 'locale'>;
  cover_letter?: string;
}

export interface OutboxRow {
  reference: string;
  created_at: number;
  campaign_id: number;
  company_id: number;
  /** Null once delivered or refused: personal data leaves the store then. */
  payload: ApplicationPayload | null;
  /** Size of the resume it holds (read it with openResume); null when it holds none, or no more. */
  resume_bytes: number | null;
  resume_type: string | null;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  dead_letter_at: number;
  /** HTTP status the candidate was answered (201, 202, 409, 422), null before the answer. */
  answered: number | null;
  outcome: Outcome | null;
  last_error: string | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  upstream_applicant_id: number | null;
  upstream_application_id: number | null;
  /** When it became dead or rejected (null before this was recorded: then its last attempt, else its creation, counts). */
  ended_at: number | null;
  /** When its personal data was erased before delivery, and why; null otherwise. */
  erased_at: number | null;
  erased_by: ErasedBy | null;
  /**
   * 1 when an earlier attempt may have reached the service without its answer
   * reaching us (a timeout, a connection cut after sending, a 5xx, a process
   * killed mid-attempt): the next attempt first looks for the application there.
   */
  unconfirmed_send: number;
  /** 1 when it went (or goes) without the board's application source: the company refused it (APPLICATION_SOURCE). */
  source_dropped: number;
  /** The campaign parameters the candidate came with (not personal data: kept after delivery); null when none. */
  utm: Utm | null;
  /** The key of the candidate's receipt page (random, 144 bits); null for rows stored before receipts. */
  receipt_token: string | null;
  /** The company's status of the delivered application, as the status sync last read it; null before. */
  company_status: string | null;
  /** When the status sync last claimed it for a check. */
  status_checked_at: number | null;
}

/**
 * The fencing token of a claim: claim() and claimDue() hand out a new
 * lease_token each time, and taking a row back (recoverLeases) changes it too,
 * so every write of an attempt names the claim it was made under and changes
 * nothing once another claimer has the row.
 */
export interface Lease {
  reference: string;
  lease_token: number;
}

/** A row claimed for an attempt, with the lease its writes must show. */
export type ClaimedRow = OutboxRow & Lease;

// A write of an attempt whose lease is no longer held rejects with the one
// lease-lost error (lease-renewal.ts), exported here under its old home too.
export { LeaseLostError } from '../lease-renewal.ts';

/** A row without its personal data (nor its receipt's key): what `outbox list` and logs may show. */
export type OutboxSummary = Omit<OutboxRow, 'payload' | 'receipt_token'> & {
  /** Whether the row still holds the candidate's fields or resume. */
  personal_data: boolean;
};

/** What `eraseByEmail` removed: references and counts, never the data itself. */
export interface ErasureReport {
  applications: { reference: string; statusBefore: OutboxStatus; status: OutboxStatus; outcome: Outcome | null }[];
  rateCounters: number;
  idempotencyKeys: number;
  /** Webhook events not yet sent (or failed) that held the candidate's fields: an application's is still sent, without them; an alert's is not sent. */
  webhookEvents: number;
}

export interface NewApplication {
  reference: string;
  /** NO_CAMPAIGN for a spontaneous application. */
  campaign_id: number;
  company_id: number;
  payload: ApplicationPayload;
  /** An upload file (UploadSpool) holding the resume, kept by enqueue. */
  resume: { path: string; size: number } | null;
  resume_type: string | null;
  /** The campaign parameters posted with it (TRACK_UTM), if any. */
  utm?: Utm | null;
  /** The key of its receipt page (newReceiptToken); the apply route always gives one. */
  receipt_token?: string;
}

export type KeyClaim =
  | { kind: 'claimed' }
  | { kind: 'reused' }
  | { kind: 'in_progress' }
  | { kind: 'replay'; status: number; body: string }
  /** A key a killed process was handling when it had already stored the application. */
  | { kind: 'stored'; reference: string };

export interface RateCount {
  count: number;
  resetAt: number;
}

/** The date a dead or refused row's personal data is erased automatically (from RETENTION_FROM, outbox-sql.ts); null when it holds none or is still in line. */
export function eraseAfter(row: OutboxSummary, retentionMs: number): number | null {
  if (!row.personal_data || !(row.status === 'dead' || row.status === 'rejected')) return null;
  return (row.ended_at ?? row.last_attempt_at ?? row.created_at) + retentionMs;
}

/**
 * openResume found the row holding a resume the store does not have (a file
 * deleted, chunks gone): no attempt can deliver it, however long it waits.
 */
export class ResumeMissingError extends Error {
  readonly reference: string;
  /** What is missing, in the store's words (a path, chunks), for the operator. */
  readonly missing: string;

  constructor(reference: string, missing: string) {
    super(`The resume of application ${reference} is missing: ${missing}.`);
    this.name = 'ResumeMissingError';
    this.reference = reference;
    this.missing = missing;
  }
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long an Idempotency-Key claimed by a request stays "in progress" for
 * the other instances (PostgreSQL) when the store is given no keyLeaseMs;
 * and the longest a claim is renewed for: longer than a request lives
 * (upload, captcha, first attempt), so a claim runs out only when its
 * process is gone, or its request left it behind.
 */
export const KEY_LEASE_MS = 5 * 60 * 1000;

export interface EnqueueOptions {
  deadLetterAfterMs: number;
  /**
   * How long the row waits before the delivery loop may claim it (0 when not
   * given): the request that stored it makes the first attempt while the
   * candidate waits, and a loop claiming the row first, in this instance or
   * another, would make it answer 202 with the application being sent.
   */
  firstAttemptAfterMs?: number;
  /** The Idempotency-Key of the request, linked to the application in the same transaction. */
  key?: string;
  /** The per-email counter to count one more in, in the same transaction. */
  emailBucket?: { bucket: string; windowMs: number };
}

export type RetryResult = 'queued' | 'not_found' | 'not_retryable' | 'erased';

/** Applications and their resumes, with the delivery leases. */
export interface OutboxStore {
  /** Identifies this process's leases and idempotency claims. */
  readonly owner: string;
  /** Where the rows are, for messages ("DATA_DIR/outbox.db", or the database). */
  readonly location: string;
  /** True while the store can be used (opened and migrated, not closed). */
  readonly isOpen: boolean;
  /**
   * Stores one application (payload and resume) and, when given, links the
   * idempotency key to it and counts the email, all in one transaction.
   */
  enqueue(app: NewApplication, options: EnqueueOptions): Promise<void>;
  /**
   * The resume of an application, read in chunks (never whole); undefined
   * when it holds none. Rejects with ResumeMissingError when the row holds
   * one the store does not have.
   */
  openResume(reference: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  /**
   * Deletes stored resumes no row holds (left by a process killed while
   * storing one); answers how many. Only the process holding the data
   * directory (`lock`) calls it, at its start, before it takes any upload:
   * a resume is kept before its row commits.
   */
  removeUnlinkedResumes(lock: DataDirLock): Promise<number>;
  /**
   * Claims one pending row for an attempt: status delivering, a lease until
   * now + leaseMs under a new lease_token, and attempts counted BEFORE the
   * attempt, so a crash mid-attempt is known as "an attempt may have reached
   * the service".
   */
  claim(reference: string, leaseMs: number): Promise<ClaimedRow | undefined>;
  /** Claims up to `limit` due rows, oldest first; rows another claimer holds are skipped, never shared. */
  claimDue(limit: number, leaseMs: number): Promise<ClaimedRow[]>;
  /**
   * Extends a held lease to now + leaseMs while its attempt runs. False when
   * the lease is no longer held (another token, or it ran out before this
   * renewal): the attempt must write nothing more.
   */
  renewLease(lease: Lease, leaseMs: number): Promise<boolean>;
  /** Time of the next due attempt, if any row waits. */
  nextDueAt(): Promise<number | undefined>;
  /**
   * Takes back rows left in `delivering` whose owner will not finish them:
   * they are due again in their place in line (when they were due), marked
   * "may have reached the service", under a new
   * lease_token (their old claimer's writes change nothing). `activeHere`:
   * references this process is still working on.
   */
  recoverLeases(activeHere?: ReadonlySet<string>): Promise<number>;
  /** Makes every waiting row due now (at start-up: a restart often follows a fix). */
  makePendingDue(): Promise<number>;
  // The writes of an attempt: each changes the row only under the lease it
  // was claimed with, and rejects with LeaseLostError (changing nothing) when
  // another claimer has it since.
  markDelivered(
    lease: Lease,
    outcome: Outcome,
    ids: { applicantId?: number | undefined; applicationId?: number | undefined },
  ): Promise<void>;
  /** A transient failure: try again at `nextAttemptAt`. `reached`: the attempt may have reached the service. */
  markRetry(lease: Lease, nextAttemptAt: number, error: string, reached?: boolean): Promise<void>;
  /** Refused for good and the candidate was told so: personal data goes. */
  markRejected(lease: Lease, outcome: Outcome, error: string): Promise<void>;
  /** Not deliverable, and the candidate was told it was received: kept for an operator. */
  markDead(lease: Lease, outcome: Outcome, error: string): Promise<void>;
  /**
   * The service refused the application: `rejected` (personal data goes) when
   * the candidate has not been answered yet and will be told why, else `dead`
   * (kept for an operator: the candidate was told it was received). Decided
   * in the same statement that reads `answered`, so it cannot cross answerQueued.
   */
  markRefused(lease: Lease, outcome: Outcome, error: string): Promise<'rejected' | 'dead' | undefined>;
  /** Records the status the candidate was answered (the first one only). */
  setAnswered(reference: string, status: number): Promise<void>;
  /**
   * At the first attempt's deadline: records 202 as the candidate's answer if
   * the row is still in line (pending or delivering) and answers true; false
   * when its attempt already ended it (the candidate gets that attempt's answer).
   */
  answerQueued(reference: string): Promise<boolean>;
  get(reference: string): Promise<OutboxRow | undefined>;
  /** The reference of the row that recorded this application of the service as its delivery, if one did (and is still kept). */
  recordedApplication(applicationId: number): Promise<string | undefined>;
  summary(reference: string): Promise<OutboxSummary | undefined>;
  list(options?: { status?: OutboxStatus; limit?: number }): Promise<OutboxSummary[]>;
  counts(): Promise<Record<OutboxStatus, number>>;
  /**
   * Total size of the resumes held for applications not yet delivered
   * (waiting, being delivered, or dead and kept for an operator): what the
   * queue weighs on its disk. Delivered and refused rows hold none.
   */
  queuedResumeBytes(): Promise<number>;
  /** Puts a dead (or waiting) application back in line now, with a fresh dead-letter deadline. */
  retry(reference: string, deadLetterAfterMs: number): Promise<RetryResult>;
  /** Erases the personal data of dead and refused rows that ended at least `retentionMs` ago; answers their references. */
  eraseExpiredPersonalData(retentionMs: number): Promise<string[]>;
  /** A right-to-erasure request (see ErasureReport): rows, the per-email counters of `rateBucket`, and the linked keys. */
  eraseByEmail(email: string, rateBucket: string): Promise<ErasureReport>;
  /** Deletes delivered and refused rows (no personal data) older than `olderThanMs`, and expired keys and counters. */
  purgeDelivered(olderThanMs?: number): Promise<number>;
  /** Gives the space of deleted rows and resumes back (and, SQLite, empties its log of erased pages). */
  compact(): Promise<void>;
  /**
   * Remembers, for every instance sharing the store, that `companyId` refused
   * the application source `source` until `until` (a later refusal moves it).
   */
  rememberSourceRefusal(companyId: number, source: string, until: number): Promise<void>;
  /** Whether `companyId` refused `source` and that refusal still holds now. */
  sourceRefused(companyId: number, source: string): Promise<boolean>;
  /** Marks a claimed row as sent without its source, under its lease (LeaseLostError when another claim holds it). */
  markSourceDropped(lease: Lease): Promise<void>;
}

/** A delivered application claimed for a status check, by this instance, for the period. */
export interface StatusCheck {
  reference: string;
  /** The service's id of the application. */
  applicationId: number;
  /** The status last read, null before the first check. */
  companyStatus: string | null;
  /** The claim's time: writes of this check name it. */
  claimedAt: number;
}

/** What a candidate's receipt page shows: no personal data, not even the reference. */
export interface ReceiptState {
  status: OutboxStatus;
  company_status: string | null;
  /** NO_CAMPAIGN for a spontaneous application. */
  campaign_id: number;
  company_id: number;
  /** When the proxy received the application (ms since the epoch). */
  created_at: number;
}

/** The status sync's claims and records, and the receipts, on the outbox's rows. */
export interface StatusStore {
  /**
   * Claims up to `limit` delivered applications (with the service's id,
   * delivered at or after `deliveredSince`) last checked at or before
   * `checkedBefore`, never-checked first; the claim is `now` written as
   * their check time, so another instance finds them not due.
   */
  claimStatusChecks(now: number, deliveredSince: number, checkedBefore: number, limit: number): Promise<StatusCheck[]>;
  /** Records the status read under a claim; false when the row is gone or was claimed again since. */
  recordStatus(check: StatusCheck, status: string): Promise<boolean>;
  /** A claimed check that could not be made: due again at once. */
  releaseStatusCheck(check: StatusCheck): Promise<void>;
  /** The state of the application whose receipt has this token; undefined when no row has it (unknown, or purged). */
  receipt(token: string): Promise<ReceiptState | undefined>;
}

/** Idempotency-Key claims and the answers they replay. */
export interface IdempotencyKeyStore {
  /**
   * Takes an Idempotency-Key for one request, or says why not: the same key
   * with another body, still being handled (here or by another instance), or
   * already answered (replay).
   */
  claimKey(key: string, fingerprint: string): Promise<KeyClaim>;
  /** Records the answer a key replays from now on. */
  completeKey(key: string, status: number, body: string): Promise<void>;
  /** Frees a key whose request stored nothing (bad input), so a corrected form may reuse it. */
  releaseKey(key: string): Promise<void>;
}

/** Fixed-window counters (the per-email apply limit), shared by every instance. */
export interface RateCounterStore {
  /** The count of a window, without counting this call. */
  peekRate(bucket: string, windowMs: number): Promise<RateCount>;
  /** Counts one more in the window and answers the new count. */
  hitRate(bucket: string, windowMs: number): Promise<RateCount>;
  /** hitRate of several buckets (each once) in one statement; the new counts in the order of `buckets`. */
  hitRates(buckets: readonly string[], windowMs: number): Promise<RateCount[]>;
}

/** The three over one database, plus what spans them. */
export interface ApplicationStore extends OutboxStore, IdempotencyKeyStore, RateCounterStore, StatusStore {
  /**
   * The webhook events of the applications: recorded (when StoreOptions.webhookEvents
   * is given) by the same transaction as the change each reports, sent by the webhook sender.
   */
  readonly webhooks: WebhookEventStore;
  /**
   * The funnel's daily counts: the proxy's own stages (received, delivered,
   * rejected, dead) and the company's outcomes counted (when
   * StoreOptions.funnel is given) by the same transaction as the change each
   * counts; the widget's beacons added by the beacon route.
   */
  readonly funnel: FunnelStore;
  /** Resolves once the store's schema is migrated and it can be used (rejects when it cannot be opened). */
  ready(): Promise<MigrationReport>;
  /** Deletes expired counters and keys (the retention sweep). */
  pruneExpired(): Promise<{ rateCounters: number; idempotencyKeys: number }>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Identifies this process's leases and idempotency claims. */
  owner: string;
  now?: () => number;
  /** How long a claimed Idempotency-Key stays this process's for the other instances unless renewed (default KEY_LEASE_MS); renewed every third of it while its request runs. */
  keyLeaseMs?: number;
  /** Record webhook events (WEBHOOK_URL is set); none are recorded without it, nobody would send them. */
  webhookEvents?: WebhookEventOptions | undefined;
  /** Count the funnel's proxy stages and outcomes (FUNNEL is on), under the board's channel; nothing is counted without it. */
  funnel?: FunnelCounting | undefined;
}
