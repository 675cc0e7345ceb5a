// The application store on PostgreSQL (DATABASE_URL), shared by every proxy
// instance behind a load balancer. Same rows and rules as the SQLite store,
// with what several live instances need:
// - resumes are rows of resume_chunks (resume-chunks.ts), written in the
//   enqueue transaction and read back chunk by chunk;
// - delivery claims due rows with FOR UPDATE SKIP LOCKED and a lease
//   (lease_owner, lease_until, and lease_token, the fencing token every write
//   of the attempt names): the owner renews it while its attempt runs, a row
//   is taken over only once its lease has ended, and the old owner's writes
//   then change nothing;
// - an Idempotency-Key claim is a row with a lease too, so a retry landing on
//   another instance answers in_progress while the first one handles it.
// Statements both stores run are written once (outbox-sql.ts, sql-outbox.ts).
// Times are the proxy's clock (`now`, ms), passed in every statement; a
// lease (DELIVERY_LEASE_SECONDS) is long against the instances' clocks
// drifting apart, and the token, not the clock, decides whose write counts.
import type pg from 'pg';
import { IDEMPOTENCY_TTL_MS, KEY_LEASE_MS } from './application-store.ts';
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
  StoreOptions,
} from './application-store.ts';
import type { DataDirLock } from './data-dir-lock.ts';
import type { MigrationReport } from './migrations.ts';
import { OUTBOX_SQL, enqueueParams } from './outbox-sql.ts';
import { migratePostgres } from './postgres-schema.ts';
import { inTransaction } from './postgres.ts';
import { deleteResumeChunks, openResumeChunks, writeResumeChunks } from './resume-chunks.ts';
import { SqlOutbox, holdsEmail, keysToErase, rateWindow, toClaimed } from './sql-outbox.ts';
import type { KeyWithAnswer } from './sql-outbox.ts';
import { wantedEmail } from './sql.ts';
import type { Raw, Sql, SqlValue } from './sql.ts';
import type { ApplicationEventType } from '../../public-api/webhook-events.ts';
import { SqlWebhookEvents } from './sql-webhook-events.ts';
import type { WebhookEventOptions } from './webhook-store.ts';
import { WEBHOOK_SQL, applicationEventParams } from './webhooks-sql.ts';

/** The runner of outbox-sql.ts's statements on the pool, or on the client of a transaction. */
function sqlOn(client: pg.Pool | pg.PoolClient): Sql {
  return {
    all: async (text, params = []) => (await client.query(text, [...params])).rows as Raw[],
    run: async (text, params = []) => (await client.query(text, [...params])).rowCount ?? 0,
  };
}

export interface PostgresStoreOptions extends StoreOptions {
  pool: pg.Pool;
  /** Names the database in messages (no password). */
  location: string;
  /** Migrates the database, once for every store on it (openBackend's ready); default: this store migrates it. */
  migrate?: () => Promise<MigrationReport>;
}

export class PostgresApplicationStore extends SqlOutbox implements ApplicationStore {
  readonly owner: string;
  readonly location: string;
  protected readonly now: () => number;
  protected readonly sql: Sql;
  readonly webhooks: SqlWebhookEvents;
  private readonly webhookEvents: WebhookEventOptions | undefined;
  private readonly pool: pg.Pool;
  private readonly keyLeaseMs: number;
  private migrated = false;
  private closed = false;
  /** The renewal timers of the Idempotency-Keys this process's requests hold. */
  private readonly keyRenewals = new Map<string, NodeJS.Timeout>();

  private migrating: Promise<MigrationReport> | undefined;
  private readonly migrate: () => Promise<MigrationReport>;

  /**
   * Keys claimed by requests of this process that are still running. A claim
   * of this owner not among them was left by a request whose release could
   * not reach the database (it went away): a retry takes it at once, instead
   * of waiting for its lease.
   */
  readonly #handling = new Set<string>();

  /** The store on `pool`; usable once ready() has migrated the database. The pool stays the caller's: close() does not end it. */
  constructor(options: PostgresStoreOptions) {
    super();
    this.owner = options.owner;
    this.location = options.location;
    this.pool = options.pool;
    this.sql = sqlOn(options.pool);
    this.now = options.now ?? Date.now;
    this.keyLeaseMs = options.keyLeaseMs ?? KEY_LEASE_MS;
    this.migrate = options.migrate ?? (() => migratePostgres(options.pool, options.location));
    this.webhookEvents = options.webhookEvents;
    this.webhooks = new SqlWebhookEvents(this.sql, this.now, this.owner, options.webhookEvents, false);
  }

  /**
   * Records an event about `reference` in the transaction of `client` (when
   * events are recorded). `holder`: its personal data before the change;
   * `status`: application.status_changed's company status.
   */
  private async recordEvent(
    client: pg.PoolClient,
    type: ApplicationEventType,
    reference: string,
    holder?: unknown,
    extra: { status?: string } = {},
  ): Promise<void> {
    if (this.webhookEvents === undefined) return;
    const [row] = await sqlOn(client).all(OUTBOX_SQL.get, [reference]);
    if (row === undefined) return;
    await sqlOn(client).run(
      WEBHOOK_SQL.insert,
      applicationEventParams(type, row, this.now(), {
        includeCandidate: this.webhookEvents.includeCandidate,
        holder,
        ...extra,
      }),
    );
  }

  /** The personal data a row holds before a change that drops it (read, and locked, only when events carry it). */
  private async holder(client: pg.PoolClient, reference: string): Promise<unknown> {
    if (this.webhookEvents?.includeCandidate !== true) return undefined;
    return (await client.query('SELECT payload FROM outbox WHERE reference = $1 FOR UPDATE', [reference])).rows[0]
      ?.payload;
  }

  /** One write of an attempt and, when it changed the row, its event, in one transaction; `after` runs in it (deleting the resume's chunks). */
  private async attemptWrite(
    lease: Lease,
    type: ApplicationEventType,
    text: string,
    params: SqlValue[],
    after?: (client: pg.PoolClient, changed: number) => Promise<void>,
  ): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const sql = sqlOn(client);
      const holder = await this.holder(client, lease.reference);
      const changed = await sql.run(text, params);
      if (changed > 0) await this.recordEvent(client, type, lease.reference, holder);
      else await this.checkLease(lease, sql);
      await after?.(client, changed);
    });
  }

  /** Migrates the database (once per store; instances starting together take turns on a lock). */
  ready(): Promise<MigrationReport> {
    this.migrating ??= this.migrate().then((report) => {
      this.migrated = true;
      return report;
    });
    return this.migrating;
  }

  get isOpen(): boolean {
    return this.migrated && !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const key of [...this.keyRenewals.keys()]) this.stopRenewingKey(key);
  }

  private async query(
    sql: string,
    params: unknown[] = [],
    client: pg.Pool | pg.PoolClient = this.pool,
  ): Promise<Raw[]> {
    return (await client.query(sql, params)).rows as Raw[];
  }

  // ---- idempotency keys ----

  async claimKey(key: string, fingerprint: string): Promise<KeyClaim> {
    // Held from the look on: a second request of this process with the key, meanwhile, must not take the claim over.
    if (this.#handling.has(key)) return this.claimKeyOf(key, fingerprint, false);
    this.#handling.add(key);
    try {
      const claim = await this.claimKeyOf(key, fingerprint, true);
      if (claim.kind !== 'claimed') this.#handling.delete(key);
      return claim;
    } catch (error) {
      this.#handling.delete(key);
      throw error;
    }
  }

  /** `abandoned`: a claim of this owner with no application is one no request of this process runs. */
  private async claimKeyOf(key: string, fingerprint: string, abandoned: boolean): Promise<KeyClaim> {
    const now = this.now();
    // A new key, one past its TTL, or one whose owner stopped before storing anything: this request takes it.
    const taken = await this.query(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, lease_until, created_at, expires_at) VALUES ($1, $2, 'in_progress', $3, $4, $5, $6)
       ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_progress', owner = excluded.owner, lease_until = excluded.lease_until,
         reference = NULL, status = NULL, body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at
       WHERE idempotency_keys.expires_at <= $5
          OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.reference IS NULL
              AND (idempotency_keys.lease_until <= $5 OR (idempotency_keys.owner = $3 AND $7)))
       RETURNING key`,
      [key, fingerprint, this.owner, now + this.keyLeaseMs, now, now + IDEMPOTENCY_TTL_MS, abandoned],
    );
    if (taken.length === 1) {
      this.renewKey(key);
      return { kind: 'claimed' };
    }
    const [row] = await this.query(
      'SELECT fingerprint, state, owner, lease_until, reference, status, body FROM idempotency_keys WHERE key = $1',
      [key],
    );
    // Deleted between the two statements (erased, pruned): try once more.
    if (row === undefined) return this.claimKeyOf(key, fingerprint, abandoned);
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.state === 'done' && row.status !== null && row.body !== null)
      return { kind: 'replay', status: Number(row.status), body: String(row.body) };
    if (Number(row.lease_until) > now) return { kind: 'in_progress' };
    // Its owner stored the application and is gone (its lease ran out): this request answers for it.
    const [takenOver] = await this.query(
      `UPDATE idempotency_keys SET owner = $2, lease_until = $3 WHERE key = $1 AND state = 'in_progress' AND lease_until <= $4 AND reference IS NOT NULL RETURNING reference`,
      [key, this.owner, now + this.keyLeaseMs, now],
    );
    if (takenOver === undefined) return { kind: 'in_progress' };
    this.renewKey(key);
    return { kind: 'stored', reference: String(takenOver.reference) };
  }

  /**
   * Keeps a claimed key this process's while its request runs: its lease
   * (keyLeaseMs) is extended every third of it until the request completes
   * or releases it, so a killed process's keys are free again one lease
   * later. Never past KEY_LEASE_MS after the claim: no request lives that
   * long, and a claim its request left behind must not be held for ever.
   */
  private renewKey(key: string): void {
    this.stopRenewingKey(key);
    const until = this.now() + KEY_LEASE_MS;
    const timer = setInterval(
      () => {
        const now = this.now();
        if (now >= until || this.closed) {
          this.stopRenewingKey(key);
          return;
        }
        this.query(
          "UPDATE idempotency_keys SET lease_until = $1 WHERE key = $2 AND owner = $3 AND state = 'in_progress' RETURNING key",
          [now + this.keyLeaseMs, key, this.owner],
        ).then(
          (rows) => {
            // Answered, released or erased meanwhile: nothing left to hold.
            if (rows.length === 0 && this.keyRenewals.get(key) === timer) this.stopRenewingKey(key);
          },
          // The database did not answer: the next renewal tries again, while the lease lasts.
          () => {},
        );
      },
      Math.max(1, Math.floor(this.keyLeaseMs / 3)),
    );
    timer.unref();
    this.keyRenewals.set(key, timer);
  }

  private stopRenewingKey(key: string): void {
    clearInterval(this.keyRenewals.get(key));
    this.keyRenewals.delete(key);
  }

  async completeKey(key: string, status: number, body: string): Promise<void> {
    this.#handling.delete(key);
    this.stopRenewingKey(key);
    const now = this.now();
    await this.query(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, lease_until, status, body, created_at, expires_at) VALUES ($1, '', 'done', $2, $3, $4, $5, $3, $6)
       ON CONFLICT (key) DO UPDATE SET state = 'done', status = excluded.status, body = excluded.body, lease_until = excluded.lease_until`,
      [key, this.owner, now, status, body, now + IDEMPOTENCY_TTL_MS],
    );
  }

  async releaseKey(key: string): Promise<void> {
    // Its request is over, whether or not the database hears of it.
    this.#handling.delete(key);
    this.stopRenewingKey(key);
    await this.query(
      `DELETE FROM idempotency_keys WHERE key = $1 AND owner = $2 AND state = 'in_progress' AND reference IS NULL`,
      [key, this.owner],
    );
  }

  async pruneExpired(): Promise<{ rateCounters: number; idempotencyKeys: number }> {
    const now = this.now();
    return inTransaction(this.pool, async (client) => {
      const sql = sqlOn(client);
      const idempotencyKeys = await sql.run(OUTBOX_SQL.pruneKeys, [now]);
      return { rateCounters: await sql.run(OUTBOX_SQL.pruneRates, [now]), idempotencyKeys };
    });
  }

  // ---- applications ----

  /**
   * One transaction: the row, its resume (read from the upload file 256 KiB
   * at a time), the key now pointing at it and the email counted. Committed
   * means durable (synchronous_commit); the upload file is the caller's.
   */
  async enqueue(app: NewApplication, options: EnqueueOptions): Promise<void> {
    const now = this.now();
    await inTransaction(this.pool, async (client) => {
      const sql = sqlOn(client);
      await sql.run(OUTBOX_SQL.enqueue, enqueueParams(app, now, options.deadLetterAfterMs));
      if (options.key !== undefined) await sql.run(WEBHOOK_SQL.setIdempotencyKey, [options.key, app.reference]);
      await this.recordEvent(client, 'application.received', app.reference);
      if (app.resume !== null) await writeResumeChunks(client, app.reference, app.resume.path, app.resume.size);
      if (options.key !== undefined) {
        await client.query(
          `INSERT INTO idempotency_keys (key, fingerprint, state, owner, lease_until, reference, created_at, expires_at) VALUES ($1, '', 'in_progress', $2, $3, $4, $5, $6)
           ON CONFLICT (key) DO UPDATE SET state = 'in_progress', owner = excluded.owner, lease_until = excluded.lease_until, reference = excluded.reference,
             status = NULL, body = NULL`,
          [options.key, this.owner, now + this.keyLeaseMs, app.reference, now, now + IDEMPOTENCY_TTL_MS],
        );
      }
      if (options.emailBucket !== undefined) {
        const window = rateWindow(options.emailBucket.bucket, options.emailBucket.windowMs, now);
        await sql.run(OUTBOX_SQL.hitRate, [window.key, window.resetAt]);
      }
    });
    // The key now names the application: no longer a claim a retry could take.
    if (options.key !== undefined) this.#handling.delete(options.key);
  }

  /** Nothing to delete: a resume's chunks are written in its row's transaction, never without it. */
  async removeUnlinkedResumes(_lock: DataDirLock): Promise<number> {
    return 0;
  }

  async openResume(reference: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    return openResumeChunks(this.pool, reference);
  }

  /** Rows another instance is claiming are skipped (SKIP LOCKED); chosen once, in a materialised CTE, as WEBHOOK_SQL.claimDue says why. */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    const now = this.now();
    const rows = await this.query(
      `WITH due AS MATERIALIZED (
         SELECT reference AS due_reference FROM outbox WHERE status = 'pending' AND next_attempt_at <= $3 ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       UPDATE outbox SET status = 'delivering', lease_owner = $1, lease_until = $2, lease_token = lease_token + 1, attempts = attempts + 1, last_attempt_at = $3
       FROM due WHERE reference = due_reference RETURNING outbox.*`,
      [this.owner, now + leaseMs, now, limit],
    );
    return rows.map(toClaimed).sort((a, b) => a.next_attempt_at - b.next_attempt_at);
  }

  /**
   * Other instances are alive: a row is taken back only once its lease has
   * ended, whoever holds it (this process's own too, unless it still works on
   * it). It keeps its place in line (the time it was due), ahead of the rows
   * that became due while it was held.
   */
  async recoverLeases(activeHere: ReadonlySet<string> = new Set()): Promise<number> {
    const now = this.now();
    const rows = await this.query(
      `UPDATE outbox SET status = 'pending', next_attempt_at = least(next_attempt_at, $1), lease_owner = NULL, lease_until = NULL, lease_token = lease_token + 1,
         unconfirmed_send = 1 WHERE status = 'delivering' AND coalesce(lease_until, 0) <= $1 AND NOT (lease_owner = $2 AND reference = ANY($3::text[]))
       RETURNING reference`,
      [now, this.owner, [...activeHere]],
    );
    return rows.length;
  }

  async markDelivered(
    lease: Lease,
    outcome: Outcome,
    ids: { applicantId?: number | undefined; applicationId?: number | undefined },
  ): Promise<void> {
    const params = [
      outcome,
      this.now(),
      ids.applicantId ?? null,
      ids.applicationId ?? null,
      lease.reference,
      lease.lease_token,
    ];
    await this.attemptWrite(lease, 'application.delivered', OUTBOX_SQL.markDelivered, params, (client) =>
      deleteResumeChunks(client, [lease.reference]),
    );
  }

  async markRejected(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    await this.attemptWrite(
      lease,
      'application.rejected',
      OUTBOX_SQL.markRejected,
      [outcome, error, this.now(), lease.reference, lease.lease_token],
      async (client, changed) => {
        if (changed > 0) await deleteResumeChunks(client, [lease.reference]);
      },
    );
  }

  /** Not deliverable, and the candidate was told it was received: kept for an operator (`outbox retry`) for PERSONAL_DATA_RETENTION_DAYS. */
  async markDead(lease: Lease, outcome: Outcome, error: string): Promise<void> {
    await this.attemptWrite(lease, 'application.dead_lettered', OUTBOX_SQL.markDead, [
      outcome,
      error,
      this.now(),
      lease.reference,
      lease.lease_token,
    ]);
  }

  async markRefused(lease: Lease, outcome: Outcome, error: string): Promise<'rejected' | 'dead' | undefined> {
    return inTransaction(this.pool, async (client) => {
      const sql = sqlOn(client);
      const holder = await this.holder(client, lease.reference);
      const [row] = await sql.all(OUTBOX_SQL.markRefused, [
        outcome,
        error,
        this.now(),
        lease.reference,
        lease.lease_token,
      ]);
      if (row === undefined) await this.checkLease(lease, sql);
      else
        await this.recordEvent(
          client,
          row.status === 'rejected' ? 'application.rejected' : 'application.dead_lettered',
          lease.reference,
          holder,
        );
      if (row?.status === 'rejected') await deleteResumeChunks(client, [lease.reference]);
      return row?.status as 'rejected' | 'dead' | undefined;
    });
  }

  async retry(reference: string, deadLetterAfterMs: number): Promise<RetryResult> {
    const now = this.now();
    return inTransaction(this.pool, async (client) => {
      const sql = sqlOn(client);
      const [row] = await sql.all(OUTBOX_SQL.retryState, [reference]);
      if (row === undefined) return 'not_found';
      if (row.erased_at !== null && row.status !== 'delivered') return 'erased';
      if (!(row.status === 'dead' || row.status === 'pending') || row.has_payload === false) return 'not_retryable';
      await sql.run(OUTBOX_SQL.requeue, [now, now + deadLetterAfterMs, reference]);
      return 'queued';
    });
  }

  // ---- retention and erasure ----

  /** Drops the rows' payloads and resumes, and the candidate's fields from their events; answers how many events held them. */
  private async dropPersonalData(
    client: pg.PoolClient,
    references: string[],
    now: number,
    by: ErasedBy,
  ): Promise<number> {
    const sql = sqlOn(client);
    let events = 0;
    for (const reference of references) {
      await sql.run(OUTBOX_SQL.dropPersonalData, [now, by, reference]);
      events += await sql.run(WEBHOOK_SQL.dropCandidate, [reference]);
    }
    await deleteResumeChunks(client, references);
    return events;
  }

  async eraseExpiredPersonalData(retentionMs: number): Promise<string[]> {
    const now = this.now();
    return inTransaction(this.pool, async (client) => {
      const rows = await sqlOn(client).all(OUTBOX_SQL.retentionEnded, [now - retentionMs]);
      const references = rows.map((r) => String(r.reference));
      if (references.length > 0) await this.dropPersonalData(client, references, now, 'retention');
      for (const reference of references) await this.recordEvent(client, 'application.erased', reference);
      return references;
    });
  }

  async eraseByEmail(email: string, rateBucket: string): Promise<ErasureReport> {
    const wanted = wantedEmail(email);
    const now = this.now();
    const report = await inTransaction(this.pool, async (client) => {
      const sql = sqlOn(client);
      const applications: ErasureReport['applications'] = [];
      let webhookEvents = 0;
      for (const row of await sql.all(OUTBOX_SQL.withPayload)) {
        if (!holdsEmail(row.payload, wanted)) continue;
        const reference = String(row.reference);
        const statusBefore = row.status as OutboxStatus;
        webhookEvents += await this.dropPersonalData(client, [reference], now, 'request');
        if (statusBefore === 'pending' || statusBefore === 'delivering') {
          await sql.run(OUTBOX_SQL.rejectErased, [now, reference]);
          applications.push({ reference, statusBefore, status: 'rejected', outcome: 'erased' });
        } else {
          applications.push({
            reference,
            statusBefore,
            status: statusBefore,
            outcome: (row.outcome ?? null) as Outcome | null,
          });
        }
        await this.recordEvent(client, 'application.erased', reference);
      }
      const prefix = `${rateBucket}@`;
      const rateCounters = await sql.run(OUTBOX_SQL.deleteCountersOf, [prefix, prefix.length]);
      const doomed = keysToErase(
        (await sql.all(OUTBOX_SQL.keysWithAnswers)) as unknown as KeyWithAnswer[],
        applications,
        wanted,
      );
      for (const key of doomed) await sql.run(OUTBOX_SQL.deleteKey, [key]);
      return { applications, rateCounters, idempotencyKeys: doomed.length, webhookEvents };
    });
    // The events of rows that no longer hold the address (delivered: their payload went), found by the address their candidate holds.
    report.webhookEvents += await this.webhooks.eraseCandidate(email);
    return report;
  }

  async purgeDelivered(olderThanMs = 0): Promise<number> {
    const now = this.now();
    return inTransaction(this.pool, async (client) => {
      const sql = sqlOn(client);
      const purged = await sql.run(OUTBOX_SQL.purgeDelivered, [now - olderThanMs]);
      await sql.run(WEBHOOK_SQL.purgeDelivered, [now - olderThanMs]);
      await sql.run(OUTBOX_SQL.pruneKeys, [now]);
      await sql.run(OUTBOX_SQL.pruneRates, [now]);
      return purged;
    });
  }

  /** Autovacuum gives the space back; erased rows' old versions go with it. */
  async compact(): Promise<void> {}
}
