// Application status changes. Rule (API rules: States): status history is
// recorded only for changes made after 2021-05-06; the current status and
// the time it was set are kept either way.
import { STATUS_HISTORY_START } from '../contract/index.ts';
import type { Database } from './db.ts';

/** True when a change at this ISO time belongs in the history (strictly after 2021-05-06). */
export function isRecordedInHistory(at: string): boolean {
  return at.slice(0, 10) > STATUS_HISTORY_START;
}

export function recordStatusChange(db: Database, applicationId: number, value: string, at: string): void {
  db.run(
    'UPDATE applications SET status = ?, status_changed_at = ?, updated_at = ? WHERE id = ?',
    value,
    at,
    at,
    applicationId,
  );
  if (isRecordedInHistory(at)) {
    db.run('INSERT INTO status_changes (application_id, value, changed_at) VALUES (?, ?, ?)', applicationId, value, at);
  }
}
