// The PostgreSQL store's resumes: rows of resume_chunks (256 KiB each),
// written from the upload file inside the transaction that stores their
// application, deleted in the one that lets them go, and read back one chunk
// at a time, so a resume is never whole in memory. The SQLite store keeps
// its resumes as files (resume-files.ts).
import { open } from 'node:fs/promises';
import { ResumeMissingError } from './application-store.ts';
import type { NewApplication } from './application-store.ts';
import type { ResumeStorage } from './sql-application-store.ts';
import type { Sql } from '../sql.ts';

/** Resume bytes per row of resume_chunks: one chunk in memory at a time, each way. */
export const RESUME_CHUNK_BYTES = 256 * 1024;

/** Copies the upload file at `path` into resume_chunks, on the runner of the enqueue transaction. */
export async function writeResumeChunks(sql: Sql, reference: string, path: string, size: number): Promise<void> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(RESUME_CHUNK_BYTES);
    let written = 0;
    for (let seq = 0; written < size; seq++) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(RESUME_CHUNK_BYTES, size - written), written);
      if (bytesRead === 0) throw new Error(`the upload file of ${reference} ended after ${written} of ${size} bytes`);
      await sql.run('INSERT INTO resume_chunks (reference, seq, bytes) VALUES ($1, $2, $3)', [
        reference,
        seq,
        buffer.subarray(0, bytesRead),
      ]);
      written += bytesRead;
    }
  } finally {
    await file.close();
  }
}

/** The resume of an application, chunk by chunk; undefined when its row holds none; ResumeMissingError when chunks are gone. */
export async function openResumeChunks(sql: Sql, reference: string): Promise<AsyncIterable<Uint8Array> | undefined> {
  const [row] = await sql.all(
    'SELECT o.resume_bytes, (SELECT count(*)::int FROM resume_chunks c WHERE c.reference = o.reference) AS chunks FROM outbox o WHERE o.reference = $1',
    [reference],
  );
  if (row === undefined || row.resume_bytes === null) return undefined;
  const chunks = Number(row.chunks);
  const expected = Math.ceil(Number(row.resume_bytes) / RESUME_CHUNK_BYTES);
  // Written with the row in one transaction, so only a hand outside the proxy takes chunks away.
  if (chunks !== expected)
    throw new ResumeMissingError(reference, `${chunks} of its ${expected} rows of resume_chunks are there`);
  const read = async (seq: number): Promise<Uint8Array> => {
    const [chunk] = await sql.all('SELECT bytes FROM resume_chunks WHERE reference = $1 AND seq = $2', [
      reference,
      seq,
    ]);
    // Erased while it was being read: the send fails rather than going out short.
    if (chunk === undefined) throw new Error('the resume is no longer stored');
    return chunk.bytes as Uint8Array;
  };
  return (async function* () {
    for (let seq = 0; seq < chunks; seq++) yield await read(seq);
  })();
}

/** ResumeStorage on rows of resume_chunks: everything happens in the transactions of the rows, nothing before or after. */
export class ResumesAsChunks implements ResumeStorage {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async keep(): Promise<void> {}

  /** The upload file stays the caller's. */
  async write(sql: Sql, app: NewApplication): Promise<void> {
    if (app.resume !== null) await writeResumeChunks(sql, app.reference, app.resume.path, app.resume.size);
  }

  abandon(): void {}

  async drop(sql: Sql, references: readonly string[]): Promise<void> {
    if (references.length > 0)
      await sql.run('DELETE FROM resume_chunks WHERE reference = ANY($1::text[])', [references]);
  }

  dropped(): void {}

  open(reference: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    return openResumeChunks(this.sql, reference);
  }

  /** Nothing to delete: a resume's chunks are written in its row's transaction, never without it. */
  async removeUnlinked(): Promise<number> {
    return 0;
  }
}
