// The application store, written once over the seam (Sql, sql.ts) for both
// databases: every accepted application is written, with its resume, in one
// transaction BEFORE the candidate gets an answer; delivery claims rows with
// a lease and records what it learnt in the same place, each change with its
// webhook event in the same transaction. Only what truly differs is handed
// in, as two small strategies:
// - where resumes live (ResumeStorage): files beside the SQLite file
//   (resume-files.ts), written before the row that points at them and
//   deleted after it lets them go; or rows of resume_chunks (resume-chunks.ts)
//   written and deleted in the row's own transaction;
// - how rows and keys are claimed (ClaimRules): by one process owning the
//   file (sqlite-store.ts), or by live instances sharing the database, with
//   SKIP LOCKED and leases (postgres-store.ts).
import type { DataDirLock } from '../data-dir-lock.ts';
import type {
  ApplicationStore,
  ClaimedRow,
  EnqueueOptions,
  ErasedBy,
  ErasureReport,
  KeyClaim,
  Lease,
  NewApplication,
  OutboxStatus,
  Outcome,
  RetryResult,
} from './application-store.ts';
import type { MigrationReport } from '../migrations.ts';
import { OUTBOX_SQL, enqueueParams } from './outbox-sql.ts';
import { SqlOutbox, holdsEmail, keysToErase, rateWindow } from './sql-outbox.ts';
import type { KeyWithAnswer } from './sql-outbox.ts';
import { flag, wantedEmail } from '../sql.ts';
import type { Sql, SqlValue } from '../sql.ts';
import type { ApplicationEventType } from '../../../public-api/webhook-events.ts';
import { SqlWebhookEvents } from '../webhooks/sql-webhook-events.ts';
import type { WebhookEventOptions } from '../webhooks/webhook-store.ts';
import { WEBHOOK_SQL } from '../webhooks/webhooks-sql.ts';
import { SqlFunnelStore } from '../funnel/sql-funnel-store.ts';
import type { FunnelCounting } from '../funnel/funnel-store.ts';
import type { FunnelStage } from '../../../public-api/funnel.ts';
import type { StatusCheck } from './application-store.ts';
import { STATUS_SQL } from './status-sql.ts';

/** Where the resumes live, and when they are written and deleted around their row's transaction. */
export interface ResumeStorage {
  /** Before the row's transaction: takes the upload file (files: fsynced and moved in). */
  keep(app: NewApplication): Promise<void>;
  /** In the row's transaction (chunks: copied from the upload file). */
  write(sql: Sql, app: NewApplication): Promise<void>;
  /** The row's transaction failed: what keep took goes. */
  abandon(reference: string): void;
  /** In the transaction that lets the resumes of `references` go (chunks: deleted). */
  drop(sql: Sql, references: readonly string[]): Promise<void>;
  /** Once that transaction committed (files: deleted). */
  dropped(references: readonly string[]): void;
  /** See OutboxStore.openResume. */
  open(reference: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  /** See OutboxStore.removeUnlinkedResumes. */
  removeUnlinked(lock: DataDirLock): Promise<number>;
}

/** How due rows and Idempotency-Keys are claimed: by the one process owning the database, or by live instances sharing it. */
export interface ClaimRules {
  /** One process owns the database: another owner's lease is a gone process's. */
  readonly singleProcess: boolean;
  claimDue(limit: number, leaseMs: number): Promise<ClaimedRow[]>;
  recoverLeases(activeHere: ReadonlySet<string>): Promise<number>;
  claimKey(key: string, fingerprint: string): Promise<KeyClaim>;
  /** In the enqueue transaction: the key now names the application stored. */
  storeKey(sql: Sql, key: string, reference: string, now: number): Promise<void>;
  /** Once that transaction committed: the key is no longer a claim a retry could take. */
  keyStored(key: string): void;
  completeKey(key: string, status: number, body: string): Promise<void>;
  releaseKey(key: string): Promise<void>;
  /** Ends what runs in the background (key renewals). */
  close(): void;
}

export interface SqlStoreParts {
  sql: Sql;
  owner: string;
  now: () => number;
  resumes: ResumeStorage;
  claims: ClaimRules;
  webhookEvents: WebhookEventOptions | undefined;
  funnel: FunnelCounting | undefined;
  /** The database runs a write inside WITH (PostgreSQL): a change and its funnel count go in one statement. */
  writesInWith: boolean;
}

/** Each end an attempt writes: its event, and the funnel's stage it counts. */
const END_STAGES = {
  'application.delivered': 'delivered',
  'application.rejected': 'rejected',
  'application.dead_lettered': 'dead',
} as const satisfies Partial<Record<ApplicationEventType, FunnelStage>>;

export abstract class SqlApplicationStore extends SqlOutbox implements ApplicationStore {
  readonly owner: string;
  abstract readonly location: string;
  abstract readonly isOpen: boolean;
  readonly webhooks: SqlWebhookEvents;
  readonly funnel: SqlFunnelStore;
  protected readonly sql: Sql;
  protected readonly now: () => number;
  private readonly resumes: ResumeStorage;
  private readonly claims: ClaimRules;

  constructor(parts: SqlStoreParts) {
    super();
    this.sql = parts.sql;
    this.owner = parts.owner;
    this.now = parts.now;
    this.resumes = parts.resumes;
    this.claims = parts.claims;
    this.webhooks = new SqlWebhookEvents(
      parts.sql,
      parts.now,
      parts.owner,
      parts.webhookEvents,
      parts.claims.singleProcess,
    );
    this.funnel = new SqlFunnelStore(parts.sql, parts.now, parts.funnel, { writesInWith: parts.writesInWith });
  }

  abstract ready(): Promise<MigrationReport>;
  abstract compact(): Promise<void>;

  async close(): Promise<void> {
    this.claims.close();
    await this.funnel.close();
  }

  /** One write of an attempt and, when it changed the row, its event, in one transaction; `drops`: it lets the resume go. */
  private async attemptWrite(
    lease: Lease,
    type: keyof typeof END_STAGES,
    text: string,
    params: SqlValue[],
    drops = false,
  ): Promise<void> {
    const changed = await this.sql.transaction(async (sql) => {
      const holder = await this.webhooks.holder(sql, lease.reference);
      const changed = await this.funnel.changeCounted(sql, text, params, lease.reference, END_STAGES[type]);
      if (changed > 0) await this.webhooks.recordIn(sql, type, lease.reference, holder);
      else await this.checkLease(lease, sql);
      if (changed > 0 && drops) await this.resumes.drop(sql, [lease.reference]);
      return changed;
    });
    if (changed > 0 && drops) this.resumes.dropped([lease.reference]);
  }

  // ---- resumes ----

  openResume(reference: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    return this.resumes.open(reference);
  }

  removeUnlinkedResumes(lock: DataDirLock): Promise<number> {
    return this.resumes.removeUnlinked(lock);
  }

  // ---- idempotency keys ----

  claimKey(key: string, fingerprint: string): Promise<KeyClaim> {
    return this.claims.claimKey(key, fingerprint);
  }

  completeKey(key: string, status: number, body: string): Promise<void> {
    return this.claims.completeKey(key, status, body);
  }

  releaseKey(key: string): Promise<void> {
    return this.claims.releaseKey(key);
  }

  /**
   * Deletes the rate counters of windows that are over and the idempotency
   * keys past their IDEMPOTENCY_TTL_MS (claimKey ignores those but does not
   * delete them: a request it refuses writes nothing).
   */
  async pruneExpired(): Promise<{ rateCounters: number; idempotencyKeys: number }> {
    const now = this.now();
    return this.sql.transaction(async (sql) => {
      const idempotencyKeys = await sql.run(OUTBOX_SQL.pruneKeys, [now]);
      return { rateCounters: await sql.run(OUTBOX_SQL.pruneRates, [now]), idempotencyKeys };
    });
  }

  // ---- after delivery ----

  /**
   * Records the status read under a claim and, when it is another than the
   * one stored (the first read too), counts that outcome once, in the same
   * transaction: a check made again with the same answer counts nothing.
   */
  override async recordStatus(check: StatusCheck, status: string): Promise<boolean> {
    return this.sql.transaction(async (sql) => {
      const [row] = await sql.all(STATUS_SQL.statusUnderClaim, [check.reference, check.claimedAt]);
      if (row === undefined) return false;
      await sql.run(STATUS_SQL.recordStatus, [status, check.reference, check.claimedAt]);
      if (row.company_status !== status) await this.funnel.countApplication(sql, check.reference, { outcome: status });
      return true;
    });
  }

  // ---- applications ----

  /**
   * Stores one application (payload and resume) and, when given, links the
   * idempotency key to it and counts the email, all in one transaction. A
   * resume kept before the transaction (a file) is deleted when it fails; a
   * crash before the commit leaves a file no row holds, deleted at the next
   * start (removeUnlinkedResumes).
   */
  async enqueue(app: NewApplication, options: EnqueueOptions): Promise<void> {
    const now = this.now();
    const { key, emailBucket } = options;
    try {
      // Inside the try: a keep that fails after its rename (a full disk at the folder's fsync) leaves no file behind.
      await this.resumes.keep(app);
      await this.sql.transaction(async (sql) => {
        await this.funnel.changeCounted(
          sql,
          OUTBOX_SQL.enqueue,
          enqueueParams(app, now, options),
          app.reference,
          'received',
        );
        if (key !== undefined) await sql.run(WEBHOOK_SQL.setIdempotencyKey, [key, app.reference]);
        await this.webhooks.recordIn(sql, 'application.received', app.reference);
        await this.resumes.write(sql, app);
        // The key is written with the application: a retry finds it, in this process or another.
        if (key !== undefined) await this.claims.storeKey(sql, key, app.reference, now);
        if (emailBucket !== undefined) {
          const window = rateWindow(emailBucket.bucket, emailBucket.windowMs, now);
          await sql.all(OUTBOX_SQL.hitRate, [window.key, window.resetAt]);
        }
      });
    } catch (error) {
      this.resumes.abandon(app.reference);
      throw error;
    }
    if (key !== undefined) this.claims.keyStored(key);
  }

  /** Claims up to `limit` due rows, oldest first (ClaimRules: how). */
  claimDue(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    return this.claims.claimDue(limit, leaseMs);
  }

  /** Takes back rows left in `delivering` whose owner will not finish them (ClaimRules: which). */
  recoverLeases(activeHere: ReadonlySet<string> = new Set()): Promise<number> {
    return this.claims.recoverLeases(activeHere);
  }

  /** Delivered: forget the personal data in the same statement, and the resume. */
  async markDelivered(
    lease: Lease,
    outcome: Outcome,
    ids: { applicantId?: number | undefined; applicationId?: number | undefined },
  ): Promise<void> {
    const { applicantId = null, applicationId = null } = ids;
    const params = [outcome, this.now(), applicantId, applicationId, lease.reference, lease.lease_token];
    await this.attemptWrite(lease, 'application.delivered', OUTBOX_SQL.markDelivered, params, true);
  }

  /** Refused for good and the candidate was told so: personal data goes. */
  async markRejected(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    const params = [outcome, error, this.now(), lease.reference, lease.lease_token];
    await this.attemptWrite(lease, 'application.rejected', OUTBOX_SQL.markRejected, params, true);
  }

  /** Not deliverable, and the candidate was told it was received: kept for an operator (`outbox retry`) for PERSONAL_DATA_RETENTION_DAYS. */
  async markDead(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    const params = [outcome, error, this.now(), lease.reference, lease.lease_token];
    await this.attemptWrite(lease, 'application.dead_lettered', OUTBOX_SQL.markDead, params);
  }

  async markRefused(lease: Lease, outcome: Outcome, error: string): Promise<'rejected' | 'dead' | undefined> {
    const status = await this.sql.transaction(async (sql) => {
      const holder = await this.webhooks.holder(sql, lease.reference);
      const params = [outcome, error, this.now(), lease.reference, lease.lease_token];
      const [row] = await sql.all(OUTBOX_SQL.markRefused, params);
      if (row === undefined) {
        await this.checkLease(lease, sql);
        return undefined;
      }
      const status = row.status as 'rejected' | 'dead';
      const type = status === 'rejected' ? 'application.rejected' : 'application.dead_lettered';
      await this.webhooks.recordIn(sql, type, lease.reference, holder);
      if (status === 'rejected') await this.resumes.drop(sql, [lease.reference]);
      await this.funnel.countApplication(sql, lease.reference, { stage: status });
      return status;
    });
    if (status === 'rejected') this.resumes.dropped([lease.reference]);
    return status;
  }

  /**
   * Puts a dead (or waiting) application back in line now, with a fresh
   * dead-letter deadline. Answers what happened, for the CLI.
   */
  async retry(reference: string, deadLetterAfterMs: number): Promise<RetryResult> {
    const now = this.now();
    return this.sql.transaction(async (sql) => {
      const [row] = await sql.all(OUTBOX_SQL.retryState, [reference]);
      if (row === undefined) return 'not_found';
      // Erased (retention or a request) and not delivered: nothing is left to send.
      if (row.erased_at !== null && row.status !== 'delivered') return 'erased';
      if (!(row.status === 'dead' || row.status === 'pending') || !flag(row.has_payload)) return 'not_retryable';
      await sql.run(OUTBOX_SQL.requeue, [now, now + deadLetterAfterMs, reference]);
      return 'queued';
    });
  }

  // ---- retention and erasure ----

  /**
   * Drops one row's payload, recording when and why, and the candidate's
   * fields from its events; its summary stays. The caller lets its resume go
   * in the same transaction. Answers how many events held them.
   */
  private async dropPersonalData(sql: Sql, reference: string, now: number, by: ErasedBy): Promise<number> {
    await sql.run(OUTBOX_SQL.dropPersonalData, [now, by, reference]);
    return sql.run(WEBHOOK_SQL.dropCandidate, [reference]);
  }

  /** Erases the personal data of dead and refused rows that ended at least `retentionMs` ago; answers their references. */
  async eraseExpiredPersonalData(retentionMs: number): Promise<string[]> {
    const now = this.now();
    const erased = await this.sql.transaction(async (sql) => {
      const rows = await sql.all(OUTBOX_SQL.retentionEnded, [now - retentionMs]);
      const references = rows.map((r) => String(r.reference));
      for (const reference of references) {
        await this.dropPersonalData(sql, reference, now, 'retention');
        await this.webhooks.recordIn(sql, 'application.erased', reference);
      }
      await this.resumes.drop(sql, references);
      return references;
    });
    this.resumes.dropped(erased);
    return erased;
  }

  /** See ApplicationStore.eraseByEmail: rows, their events, counters and keys. */
  async eraseByEmail(email: string, rateBucket: string): Promise<ErasureReport> {
    const wanted = wantedEmail(email);
    const now = this.now();
    const report = await this.sql.transaction(async (sql): Promise<ErasureReport> => {
      const applications: ErasureReport['applications'] = [];
      let webhookEvents = 0;
      // Payloads are JSON: read the rows that still hold one (bounded by what is kept) and compare in JS.
      for (const row of await sql.all(OUTBOX_SQL.withPayload)) {
        if (!holdsEmail(row.payload, wanted)) continue;
        const reference = String(row.reference);
        const statusBefore = row.status as OutboxStatus;
        webhookEvents += await this.dropPersonalData(sql, reference, now, 'request');
        if (statusBefore === 'pending' || statusBefore === 'delivering') {
          await sql.run(OUTBOX_SQL.rejectErased, [now, reference]);
          applications.push({ reference, statusBefore, status: 'rejected', outcome: 'erased' });
        } else {
          const outcome = (row.outcome ?? null) as Outcome | null;
          applications.push({ reference, statusBefore, status: statusBefore, outcome });
        }
        await this.webhooks.recordIn(sql, 'application.erased', reference);
      }
      await this.resumes.drop(
        sql,
        applications.map((a) => a.reference),
      );
      const prefix = `${rateBucket}@`;
      const rateCounters = await sql.run(OUTBOX_SQL.deleteCountersOf, [prefix, prefix.length]);
      const keys = (await sql.all(OUTBOX_SQL.keysWithAnswers)) as unknown as KeyWithAnswer[];
      const doomed = keysToErase(keys, applications, wanted);
      for (const key of doomed) await sql.run(OUTBOX_SQL.deleteKey, [key]);
      return { applications, rateCounters, idempotencyKeys: doomed.length, webhookEvents };
    });
    this.resumes.dropped(report.applications.map((a) => a.reference));
    // The events of rows that no longer hold the address (delivered: their payload went), found by the address their candidate holds.
    report.webhookEvents += await this.webhooks.eraseCandidate(email);
    return report;
  }

  /** Deletes delivered and refused rows (they hold no personal data), and expired keys and counters. */
  async purgeDelivered(olderThanMs = 0): Promise<number> {
    const now = this.now();
    return this.sql.transaction(async (sql) => {
      const purged = await sql.run(OUTBOX_SQL.purgeDelivered, [now - olderThanMs]);
      await sql.run(WEBHOOK_SQL.purgeDelivered, [now - olderThanMs]);
      await sql.run(OUTBOX_SQL.pruneKeys, [now]);
      await sql.run(OUTBOX_SQL.pruneRates, [now]);
      return purged;
    });
  }
}
