// Applications put straight into a store as the proxy's routes queue them, for
// the tests of what reads the outbox afterwards: the outbox and webhooks
// commands, a proxy starting on a data directory, a webhook receiver.
import { emailBucket } from '../server/proxy/applications/form.ts';
import type { OutboxStore } from '../server/proxy/storage/outbox/application-store.ts';
import { uploadedResume } from '../server/proxy/storage/test-support.ts';

const DAY = 24 * 60 * 60 * 1000;

export interface QueuedApplication {
  reference: string;
  email: string;
  /** The data directory a PDF resume is uploaded into; no resume without it. */
  resumeIn?: string;
  /** Counts the application against its address's daily limit, as an accepted apply does. */
  countEmail?: boolean;
}

/** Queues an application to offer 7 of company 1, dead-lettered after an hour. */
export async function enqueueApplication(
  store: Pick<OutboxStore, 'enqueue'>,
  { reference, email, resumeIn, countEmail = false }: QueuedApplication,
): Promise<void> {
  await store.enqueue(
    {
      reference,
      campaign_id: 7,
      company_id: 1,
      payload: { applicant: { email } },
      resume: resumeIn === undefined ? null : uploadedResume(resumeIn, Buffer.from('%PDF-1.4')),
      resume_type: resumeIn === undefined ? null : 'pdf',
    },
    {
      deadLetterAfterMs: 3_600_000,
      ...(countEmail ? { emailBucket: { bucket: emailBucket(email), windowMs: DAY } } : {}),
    },
  );
}
