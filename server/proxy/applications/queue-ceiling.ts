// The queue's ceiling on disk: past MAX_QUEUED_BYTES of resumes waiting for
// the service, or below MIN_FREE_DISK_BYTES free on DATA_DIR's disk, a new
// application is refused before its body is read, so the applications already
// accepted keep the room they need until they are delivered. Both are read at
// most once per `ttlMs`: the apply path must not pay a query and a statfs per
// request. Between two readings, the resumes stored here are added as they go.
import { freeSpaceOf } from './disk-floor.ts';
import type { FreeSpaceReader } from './disk-floor.ts';

export type CeilingReached = 'queued_bytes' | 'free_disk';

export interface QueueCeilingOptions {
  maxQueuedBytes: number;
  /** 0: no floor. */
  minFreeDiskBytes: number;
  dataDir: string;
  /** The store's count (ApplicationStore.queuedResumeBytes). */
  queuedBytes: () => Promise<number>;
  freeSpace?: FreeSpaceReader;
  now?: () => number;
  /** How long one reading is trusted (default 1 s). */
  ttlMs?: number;
}

interface Reading {
  at: number;
  queuedBytes: number;
  freeBytes: number;
}

export class QueueCeiling {
  readonly #options: Required<QueueCeilingOptions>;
  #last: Reading | undefined;
  #reading: Promise<Reading> | undefined;
  /** Resume bytes stored here since the current reading was taken. */
  #storedSince = 0;

  constructor(options: QueueCeilingOptions) {
    this.#options = { freeSpace: freeSpaceOf, now: Date.now, ttlMs: 1_000, ...options };
  }

  /** Which ceiling a new application would pass, if any. Rejects when the store or the disk cannot be read. */
  async reached(): Promise<CeilingReached | undefined> {
    const reading = await this.#current();
    if (reading.queuedBytes + this.#storedSince >= this.#options.maxQueuedBytes) return 'queued_bytes';
    if (reading.freeBytes - this.#storedSince < this.#options.minFreeDiskBytes) return 'free_disk';
    return undefined;
  }

  /** An application was stored with a resume of `bytes`: it counts at once, before the next reading. */
  noteStored(bytes: number): void {
    this.#storedSince += bytes;
  }

  #current(): Promise<Reading> {
    const { now, ttlMs } = this.#options;
    const last = this.#last;
    if (last !== undefined && now() - last.at < ttlMs) return Promise.resolve(last);
    // One reading at a time: requests arriving meanwhile share it; a failed one is not kept.
    this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  async #read(): Promise<Reading> {
    const { queuedBytes, freeSpace, dataDir, now, minFreeDiskBytes } = this.#options;
    const at = now();
    const stored = this.#storedSince;
    const [bytes, free] = await Promise.all([queuedBytes(), minFreeDiskBytes === 0 ? Infinity : freeSpace(dataDir)]);
    // What was stored while this reading ran may be in it or not: it stays counted (the safe side).
    this.#storedSince -= stored;
    this.#last = { at, queuedBytes: bytes, freeBytes: free };
    return this.#last;
  }
}
