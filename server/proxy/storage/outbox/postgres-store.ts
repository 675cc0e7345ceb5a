// The application store on PostgreSQL (DATABASE_URL), shared by every proxy
// instance behind a load balancer: the store written once
// (sql-application-store.ts) over the pool (postgresSql), with resumes as
// rows of resume_chunks (resume-chunks.ts) and the claims of live instances
// sharing the database (LeasedClaims):
// - delivery claims due rows with FOR UPDATE SKIP LOCKED and a lease
//   (lease_owner, lease_until, and lease_token, the fencing token every write
//   of the attempt names): the owner renews it while its attempt runs, a row
//   is taken over only once its lease has ended, and the old owner's writes
//   then change nothing;
// - an Idempotency-Key claim is a row with a lease too, so a retry landing on
//   another instance answers in_progress while the first one handles it.
// Times are the proxy's clock (`now`, ms), passed in every statement; a
// lease (DELIVERY_LEASE_SECONDS) is long against the instances' clocks
// drifting apart, and the token, not the clock, decides whose write counts.
import type pg from 'pg';
import { holdLease } from '../lease-renewal.ts';
import type { LeaseHold } from '../lease-renewal.ts';
import { IDEMPOTENCY_TTL_MS, KEY_LEASE_MS } from './application-store.ts';
import type { ClaimedRow, KeyClaim, StoreOptions } from './application-store.ts';
import type { MigrationReport } from '../migrations.ts';
import { migratePostgres } from '../postgres-schema.ts';
import { postgresSql } from '../postgres.ts';
import { ResumesAsChunks } from './resume-chunks.ts';
import { SqlApplicationStore } from './sql-application-store.ts';
import type { ClaimRules } from './sql-application-store.ts';
import { toClaimed } from './sql-outbox.ts';
import type { Sql } from '../sql.ts';

export interface PostgresStoreOptions extends StoreOptions {
  pool: pg.Pool;
  /** Names the database in messages (no password). */
  location: string;
  /** Migrates the database, once for every store on it (openBackend's ready); default: this store migrates it. */
  migrate?: () => Promise<MigrationReport>;
}

/** Claims among live instances: rows with SKIP LOCKED and leases, Idempotency-Keys as rows with a lease renewed while their request runs. */
export class LeasedClaims implements ClaimRules {
  readonly singleProcess = false;
  private readonly sql: Sql;
  private readonly owner: string;
  private readonly now: () => number;
  private readonly keyLeaseMs: number;
  private closed = false;
  /** The renewals of the Idempotency-Keys this process's requests hold. */
  private readonly keyRenewals = new Map<string, LeaseHold>();
  /**
   * Keys claimed by requests of this process that are still running. A claim
   * of this owner not among them was left by a request whose release could
   * not reach the database (it went away): a retry takes it at once, instead
   * of waiting for its lease.
   */
  readonly #handling = new Set<string>();

  constructor(sql: Sql, owner: string, now: () => number, keyLeaseMs: number) {
    this.sql = sql;
    this.owner = owner;
    this.now = now;
    this.keyLeaseMs = keyLeaseMs;
  }

  /** Rows another instance is claiming are skipped (SKIP LOCKED); chosen once, in a materialised CTE, as WEBHOOK_SQL.claimDue says why. */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    const now = this.now();
    const rows = await this.sql.all(
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
  async recoverLeases(activeHere: ReadonlySet<string>): Promise<number> {
    const now = this.now();
    const rows = await this.sql.all(
      `UPDATE outbox SET status = 'pending', next_attempt_at = least(next_attempt_at, $1), lease_owner = NULL, lease_until = NULL, lease_token = lease_token + 1,
         unconfirmed_send = 1 WHERE status = 'delivering' AND coalesce(lease_until, 0) <= $1 AND NOT (lease_owner = $2 AND reference = ANY($3::text[]))
       RETURNING reference`,
      [now, this.owner, [...activeHere]],
    );
    return rows.length;
  }

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
    const taken = await this.sql.all(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, lease_until, created_at, expires_at) VALUES ($1, $2, 'in_progress', $3, $4, $5, $6)
       ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_progress', owner = excluded.owner, lease_until = excluded.lease_until,
         reference = NULL, status = NULL, body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at
       WHERE idempotency_keys.expires_at <= $5
          OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.reference IS NULL
              AND (idempotency_keys.lease_until <= $5 OR (idempotency_keys.owner = $3 AND $7)))
       RETURNING key`,
      [
        key,
        fingerprint,
        this.owner,
        now + this.keyLeaseMs,
        now,
        now + IDEMPOTENCY_TTL_MS,
        abandoned ? 'true' : 'false',
      ],
    );
    if (taken.length === 1) {
      this.renewKey(key);
      return { kind: 'claimed' };
    }
    const [row] = await this.sql.all(
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
    const [takenOver] = await this.sql.all(
      `UPDATE idempotency_keys SET owner = $2, lease_until = $3 WHERE key = $1 AND state = 'in_progress' AND lease_until <= $4 AND reference IS NOT NULL RETURNING reference`,
      [key, this.owner, now + this.keyLeaseMs, now],
    );
    if (takenOver === undefined) return { kind: 'in_progress' };
    this.renewKey(key);
    return { kind: 'stored', reference: String(takenOver.reference) };
  }

  /**
   * Keeps a claimed key this process's while its request runs: its lease
   * (keyLeaseMs) is renewed as a delivery's is (holdLease) until the request
   * completes or releases it, so a killed process's keys are free again one
   * lease later. Never past KEY_LEASE_MS after the claim: no request lives
   * that long, and a claim its request left behind must not be held for ever.
   */
  private renewKey(key: string): void {
    this.stopRenewingKey(key);
    const until = this.now() + KEY_LEASE_MS;
    const hold = holdLease({
      leaseMs: this.keyLeaseMs,
      renew: async () => {
        const now = this.now();
        if (now >= until || this.closed) return false;
        // Answered, released or erased meanwhile: nothing left to hold.
        const rows = await this.sql.all(
          "UPDATE idempotency_keys SET lease_until = $1 WHERE key = $2 AND owner = $3 AND state = 'in_progress' RETURNING key",
          [now + this.keyLeaseMs, key, this.owner],
        );
        return rows.length > 0;
      },
      // The database did not answer: the next renewal tries again, while the lease lasts.
      onError: () => {},
    });
    hold.signal.addEventListener('abort', () => {
      if (this.keyRenewals.get(key) === hold) this.stopRenewingKey(key);
      else hold.stop();
    });
    this.keyRenewals.set(key, hold);
  }

  private stopRenewingKey(key: string): void {
    this.keyRenewals.get(key)?.stop();
    this.keyRenewals.delete(key);
  }

  async storeKey(sql: Sql, key: string, reference: string, now: number): Promise<void> {
    await sql.run(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, lease_until, reference, created_at, expires_at) VALUES ($1, '', 'in_progress', $2, $3, $4, $5, $6)
       ON CONFLICT (key) DO UPDATE SET state = 'in_progress', owner = excluded.owner, lease_until = excluded.lease_until, reference = excluded.reference,
         status = NULL, body = NULL`,
      [key, this.owner, now + this.keyLeaseMs, reference, now, now + IDEMPOTENCY_TTL_MS],
    );
  }

  keyStored(key: string): void {
    this.#handling.delete(key);
  }

  async completeKey(key: string, status: number, body: string): Promise<void> {
    this.#handling.delete(key);
    this.stopRenewingKey(key);
    const now = this.now();
    await this.sql.run(
      `INSERT INTO idempotency_keys (key, fingerprint, state, owner, lease_until, status, body, created_at, expires_at) VALUES ($1, '', 'done', $2, $3, $4, $5, $3, $6)
       ON CONFLICT (key) DO UPDATE SET state = 'done', status = excluded.status, body = excluded.body, lease_until = excluded.lease_until`,
      [key, this.owner, now, status, body, now + IDEMPOTENCY_TTL_MS],
    );
  }

  async releaseKey(key: string): Promise<void> {
    // Its request is over, whether or not the database hears of it.
    this.#handling.delete(key);
    this.stopRenewingKey(key);
    await this.sql.run(
      `DELETE FROM idempotency_keys WHERE key = $1 AND owner = $2 AND state = 'in_progress' AND reference IS NULL`,
      [key, this.owner],
    );
  }

  close(): void {
    this.closed = true;
    for (const key of [...this.keyRenewals.keys()]) this.stopRenewingKey(key);
  }
}

export class PostgresApplicationStore extends SqlApplicationStore {
  readonly location: string;
  private migrated = false;
  private closed = false;
  private migrating: Promise<MigrationReport> | undefined;
  private readonly migrate: () => Promise<MigrationReport>;

  /** The store on `pool`; usable once ready() has migrated the database. The pool stays the caller's: close() does not end it. */
  constructor(options: PostgresStoreOptions) {
    const sql = postgresSql(options.pool);
    const now = options.now ?? Date.now;
    super({
      sql,
      owner: options.owner,
      now,
      resumes: new ResumesAsChunks(sql),
      claims: new LeasedClaims(sql, options.owner, now, options.keyLeaseMs ?? KEY_LEASE_MS),
      webhookEvents: options.webhookEvents,
      funnel: options.funnel,
      writesInWith: true,
    });
    this.location = options.location;
    this.migrate = options.migrate ?? (() => migratePostgres(options.pool, options.location));
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

  override async close(): Promise<void> {
    this.closed = true;
    await super.close();
  }

  /** Autovacuum gives the space back; erased rows' old versions go with it. */
  async compact(): Promise<void> {}
}
