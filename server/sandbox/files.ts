// Files sent as base64 (resumes, comment attachments): decoded, checked
// against their declared type by their bytes, stored in the database and
// served back at /files/<token>. Processing (resume_url, skills,
// completeness) happens after the response, in jobs.ts.
import { randomBytes } from 'node:crypto';
import { MIME_TYPE_OF, sniffFileType } from '../contract/index.ts';
import type { AttachmentType } from '../contract/index.ts';
import type { Database } from './db.ts';
import { SandboxError, ruleBroken } from './errors.ts';

/** Largest decoded file taken: 10 MiB (our decision; the spec is silent). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface CheckedFile {
  type: AttachmentType;
  bytes: Buffer;
}

/** Decodes and checks one file; field is its path in the body, for the error details. */
export async function checkFile(
  input: { base64: string; mime_type: AttachmentType },
  field: string,
): Promise<CheckedFile> {
  // Upper bound before decoding, so a huge string is refused without allocating its bytes.
  if (Math.floor((input.base64.length * 3) / 4) > MAX_FILE_BYTES + 3) tooLarge(field);
  const bytes = Buffer.from(input.base64, 'base64');
  if (bytes.length > MAX_FILE_BYTES) tooLarge(field);
  const { type: actual } = await sniffFileType(bytes);
  if (actual !== input.mime_type) {
    const what = actual ?? 'none of pdf, jpg, png, doc, docx, xlsx';
    throw ruleBroken(
      'file_type_mismatch',
      `${field}.mime_type`,
      `does not match the file, whose bytes are ${what}; send the real type`,
    );
  }
  return { type: input.mime_type, bytes };
}

function tooLarge(field: string): never {
  throw new SandboxError('file_too_large', `${field}: the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB.`, [
    { field: `${field}.base64`, message: `must decode to at most ${MAX_FILE_BYTES} bytes` },
  ]);
}

/** Stores a checked file; returns the path it is served at (relative to the origin). */
export function storeFile(db: Database, companyId: number, file: CheckedFile, now: string): string {
  const token = randomBytes(16).toString('hex');
  db.run(
    'INSERT INTO files (token, company_id, type, mime, size, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    token,
    companyId,
    file.type,
    MIME_TYPE_OF[file.type],
    file.bytes.length,
    file.bytes,
    now,
  );
  return `/files/${token}.${file.type}`;
}

export function readFile(db: Database, token: string): { mime: string; bytes: Uint8Array; type: string } | undefined {
  return db.get<{ mime: string; bytes: Uint8Array; type: string }>(
    'SELECT mime, bytes, type FROM files WHERE token = ?',
    token,
  );
}
