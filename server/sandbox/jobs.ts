// The asynchronous part of file uploads (API rules: Files: files are processed
// after the call answers): a small in-process queue run after the response is sent.
// A job sets resume_url, marks the application complete (status 'complete')
// and extracts skills when the company has the option.
import type { SandboxClock } from './clock.ts';
import type { Database } from './db.ts';
import { readFile } from './files.ts';
import { extractSkills } from './skills.ts';
import { recordStatusChange } from './status.ts';

export type Job =
  | { kind: 'application_resume'; applicationId: number; path: string }
  | { kind: 'applicant_resume'; applicantId: number; path: string; applicationIds: number[] }
  | { kind: 'attachment'; commentId: number; path: string };

export class JobQueue {
  readonly #db: Database;
  readonly #clock: SandboxClock;
  readonly #queue: Job[] = [];
  #scheduled = false;
  #closed = false;
  #waiters: (() => void)[] = [];

  constructor(db: Database, clock: SandboxClock) {
    this.#db = db;
    this.#clock = clock;
  }

  get pending(): number {
    return this.#queue.length;
  }

  /** Queues jobs; they run on a later turn of the event loop, after the response. */
  add(...jobs: Job[]): void {
    if (this.#closed) return;
    this.#queue.push(...jobs);
    this.#schedule();
  }

  /** Resolves once every queued job has run. */
  idle(): Promise<void> {
    if (this.#queue.length === 0 && !this.#scheduled) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  clear(): void {
    this.#queue.length = 0;
  }

  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // A timer rather than setImmediate: the response of the request that queued the job is flushed first.
    setTimeout(() => this.#runOne(), 5).unref();
  }

  #runOne(): void {
    this.#scheduled = false;
    const job = this.#queue.shift();
    if (job !== undefined && !this.#closed) {
      try {
        this.#run(job);
      } catch (error) {
        // The record may have been removed by a reset meanwhile; a sandbox job never takes the process down.
        if (process.env.SANDBOX_DEBUG) console.error('sandbox job failed', error);
      }
    }
    if (this.#queue.length > 0) {
      this.#schedule();
    } else {
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  #run(job: Job): void {
    const db = this.#db;
    const now = this.#clock.iso();
    switch (job.kind) {
      case 'application_resume':
        db.transaction(() => this.#completeApplication(job.applicationId, job.path, now));
        break;
      case 'applicant_resume':
        db.transaction(() => {
          db.run('UPDATE applicants SET resume_path = ?, updated_at = ? WHERE id = ?', job.path, now, job.applicantId);
          for (const id of job.applicationIds) this.#completeApplication(id, job.path, now);
        });
        break;
      case 'attachment':
        db.run('UPDATE comments SET attachment_path = ? WHERE id = ?', job.path, job.commentId);
        break;
    }
  }

  /** Rule (API rules: States): uploading a resume with an application sets its status to 'complete'. */
  #completeApplication(applicationId: number, path: string, now: string): void {
    const db = this.#db;
    const app = db.get<{ company_id: number; status: string }>(
      'SELECT company_id, status FROM applications WHERE id = ?',
      applicationId,
    );
    if (app === undefined) return;
    db.run(
      'UPDATE applications SET resume_path = ?, is_complete = 1, updated_at = ? WHERE id = ?',
      path,
      now,
      applicationId,
    );
    if (app.status !== 'complete') recordStatusChange(db, applicationId, 'complete', now);
    const company = db.get<{ skills_option: number }>(
      'SELECT skills_option FROM companies WHERE id = ?',
      app.company_id,
    );
    if (company?.skills_option === 1) {
      const token = /^\/files\/([0-9a-f]+)\./.exec(path)?.[1];
      const file = token === undefined ? undefined : readFile(db, token);
      if (file !== undefined) {
        for (const name of extractSkills(file.bytes, file.type)) {
          db.run('INSERT OR IGNORE INTO skills (application_id, name) VALUES (?, ?)', applicationId, name);
        }
      }
    }
  }
}
