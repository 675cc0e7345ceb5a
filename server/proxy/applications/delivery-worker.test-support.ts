// Stand-ins for the recruitment service in the delivery worker's tests: a
// createApplicant the test answers when it chooses, or from a script.
import type { ApplicationStore } from '../storage/outbox/application-store.ts';
import { SqliteApplicationStore } from '../storage/outbox/sqlite-store.ts';
import { newApplication } from '../storage/test-support.ts';
import type { DeliveryClient } from './delivery.ts';

/** A SQLite store in `dir`, owned by process-1, on the test's clock; ready. */
export async function workerStore(dir: string, now: () => number): Promise<SqliteApplicationStore> {
  const store = new SqliteApplicationStore({ dataDir: dir, owner: 'process-1', now });
  await store.ready();
  return store;
}

/** A pending application of campaign 12 (company 3), without a resume, dead-lettered after `deadLetterAfterMs`. */
export async function enqueueRow(store: ApplicationStore, reference: string, deadLetterAfterMs: number): Promise<void> {
  await store.enqueue(newApplication(reference, { email: `${reference}@example.org` }), { deadLetterAfterMs });
}

/** A service whose createApplicant answers (201) only once the test calls answer(). */
export function heldService(): { client: DeliveryClient; sent: () => number; answer: () => void } {
  let sent = 0;
  let answer = (): void => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const client = {
    jobboards: {
      async createApplicant() {
        sent += 1;
        await answered;
        return { id: 7, applications: [{ id: 9, campaign_id: 12 }] };
      },
    },
    applications: {},
  } as unknown as DeliveryClient;
  return { client, sent: () => sent, answer: () => answer() };
}

/**
 * A service whose createApplicant answers each call with the next of
 * `answers` (an Error is thrown), else creates; held while closed. It holds
 * no earlier application of anyone (the look before a re-send finds none).
 */
export function scriptedService(answers: (unknown | Error)[]): {
  client: DeliveryClient;
  sent: () => number;
  open: () => void;
  close: () => void;
} {
  let sent = 0;
  let gate: Promise<void> = Promise.resolve();
  let open = (): void => {};
  const client = {
    jobboards: {
      async createApplicant() {
        sent += 1;
        const answer = answers.shift();
        await gate;
        if (answer instanceof Error) throw answer;
        return answer ?? { id: 7, applications: [{ id: 9, campaign_id: 12 }] };
      },
    },
    applications: {
      async list() {
        return { data: [], pagination: { 'next-page': null } };
      },
    },
  } as unknown as DeliveryClient;
  return {
    client,
    sent: () => sent,
    open: () => open(),
    close: () => {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
  };
}
