// Test helpers: an application and its resume as the routes hand them to the
// store (the resume already written to an upload file of the data directory);
// the bytes of a stored resume.
import { writeFileSync } from 'node:fs';
import { UploadSpool } from '../applications/upload-spool.ts';
import type { ClaimedRow, NewApplication, OutboxStore } from './application-store.ts';

export function uploadedResume(dataDir: string, bytes: Uint8Array): { path: string; size: number } {
  const path = new UploadSpool(dataDir).newPath();
  writeFileSync(path, bytes);
  return { path, size: bytes.length };
}

/** An application to offer 12 of company 3 from Ada, with a PDF resume uploaded into `resumeIn` (the data directory), or none without it. */
export function newApplication(reference: string, options: { resumeIn?: string; email?: string; utm?: NewApplication['utm'] } = {}): NewApplication {
  const { resumeIn, email = 'ada@example.org', utm } = options;
  return {
    reference,
    campaign_id: 12,
    company_id: 3,
    payload: { applicant: { email, first_name: 'Ada' }, cover_letter: 'Hello' },
    resume: resumeIn === undefined ? null : uploadedResume(resumeIn, Buffer.from('%PDF-1.4 resume')),
    resume_type: resumeIn === undefined ? null : 'pdf',
    ...(utm === undefined ? {} : { utm }),
  };
}

/** The bytes of a stored resume, or null when the store holds none for that reference. */
export async function storedResume(outbox: Pick<OutboxStore, 'openResume'>, reference: string): Promise<Buffer | null> {
  const stream = await outbox.openResume(reference);
  if (stream === undefined) return null;
  const chunks: Uint8Array[] = [];
  // Copied: a chunk is only valid until the next is read.
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Claims a pending row for an attempt, as the worker does; fails the test when it is not claimable. */
export async function claimed(outbox: Pick<OutboxStore, 'claim'>, reference: string, leaseMs = 60_000): Promise<ClaimedRow> {
  const row = await outbox.claim(reference, leaseMs);
  if (row === undefined) throw new Error(`${reference} could not be claimed`);
  return row;
}
