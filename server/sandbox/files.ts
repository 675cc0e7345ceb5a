// Files sent as base64 (resumes, comment attachments): decoded, checked
// against their declared type by their bytes, stored in the database and
// served back at /files/<token>. Processing (resume_url, skills,
// completeness) happens after the response, in jobs.ts.
import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { MIME_TYPE_OF } from '../contract/index.ts';
import type { AttachmentType } from '../contract/index.ts';
import type { Database } from './db.ts';
import { ApiError, ruleBroken } from './errors.ts';

/** Largest decoded file taken: 10 MiB (our decision; the spec is silent). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The OLE2 compound file signature of legacy .doc files. */
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export interface CheckedFile {
  type: AttachmentType;
  bytes: Buffer;
}

/** What the bytes really are, in the API's short type names; 'other' when none of them. */
export async function sniffType(bytes: Buffer): Promise<AttachmentType | 'other'> {
  if (bytes.subarray(0, 8).equals(OLE2)) return 'doc';
  // A damaged file (a truncated zip, say) may make the sniffer throw: it is then simply not a known type.
  const found = await fileTypeFromBuffer(bytes).catch(() => undefined);
  switch (found?.ext) {
    case 'pdf':
      return 'pdf';
    case 'jpg':
      return 'jpg';
    case 'png':
      return 'png';
    case 'docx':
      return 'docx';
    case 'xlsx':
      return 'xlsx';
    case 'cfb':
      return 'doc';
    default:
      return 'other';
  }
}

/** Decodes and checks one file; field is its path in the body, for the error details. */
export async function checkFile(input: { base64: string; mime_type: AttachmentType }, field: string): Promise<CheckedFile> {
  // Upper bound before decoding, so a huge string is refused without allocating its bytes.
  if (Math.floor((input.base64.length * 3) / 4) > MAX_FILE_BYTES + 3) tooLarge(field);
  const bytes = Buffer.from(input.base64, 'base64');
  if (bytes.length > MAX_FILE_BYTES) tooLarge(field);
  const actual = await sniffType(bytes);
  if (actual !== input.mime_type) {
    const what = actual === 'other' ? 'none of pdf, jpg, png, doc, docx, xlsx' : actual;
    throw ruleBroken(
      'file_type_mismatch',
      `${field}.mime_type`,
      `is "${input.mime_type}" but the file's bytes are ${what}; send the real type`,
    );
  }
  return { type: input.mime_type, bytes };
}

function tooLarge(field: string): never {
  throw new ApiError('file_too_large', `${field}: the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB.`, [
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
  return db.get<{ mime: string; bytes: Uint8Array; type: string }>('SELECT mime, bytes, type FROM files WHERE token = ?', token);
}
