// The webhook events of the SQLite store, recorded inside its synchronous
// transactions (node:sqlite): no await between a change and its event.
import type { ApplicationEventType } from '../../public-api/webhook-events.ts';
import { OUTBOX_SQL } from './outbox-sql.ts';
import type { Raw, SqlValue } from './sql.ts';
import type { WebhookEventOptions } from './webhook-store.ts';
import { WEBHOOK_SQL, applicationEventParams } from './webhooks-sql.ts';

/** The store's statements, run at once. */
export interface SyncSql {
  get(text: string, ...params: SqlValue[]): Raw | undefined;
  run(text: string, ...params: SqlValue[]): number;
}

export class SqliteEvents {
  private readonly sql: SyncSql;
  private readonly options: WebhookEventOptions | undefined;
  private readonly now: () => number;

  constructor(sql: SyncSql, options: WebhookEventOptions | undefined, now: () => number) {
    this.sql = sql;
    this.options = options;
    this.now = now;
  }

  /**
   * Records an event about `reference` (when events are recorded), in the
   * caller's transaction. `holder`: its personal data before the change;
   * `status`: application.status_changed's company status.
   */
  record(type: ApplicationEventType, reference: string, holder?: unknown, extra: { status?: string } = {}): void {
    if (this.options === undefined) return;
    const row = this.sql.get(OUTBOX_SQL.get, reference);
    if (row !== undefined)
      this.sql.run(
        WEBHOOK_SQL.insert,
        ...applicationEventParams(type, row, this.now(), {
          includeCandidate: this.options.includeCandidate,
          holder,
          ...extra,
        }),
      );
  }

  /** The personal data a row holds before a change that drops it (read only when events carry it). */
  holder(reference: string): unknown {
    if (this.options?.includeCandidate !== true) return undefined;
    return this.sql.get('SELECT payload FROM outbox WHERE reference = $1', reference)?.payload;
  }

  /** One write about `reference` and, when it changed the row, its event; the caller holds the transaction. */
  write(type: ApplicationEventType, reference: string, text: string, params: SqlValue[]): number {
    const holder = this.holder(reference);
    const changed = this.sql.run(text, ...params);
    if (changed > 0) this.record(type, reference, holder);
    return changed;
  }
}
