// Delivery of one outbox row to the recruitment service: one attempt, and
// what its result means for the row (the worker that runs and retries them is
// delivery-worker.ts).
//
// Exactly once: the service has no idempotency key, but it refuses a second
// applicant with the same email for a company (409 applicant_exists) and a
// second application of one applicant to one campaign (409
// application_exists). A row's attempts are counted BEFORE each attempt, so
// when an attempt after the first meets application_exists, an earlier
// attempt (cut by a timeout, a reset or a kill -9 between the service's
// answer and our mark) did deliver it: it is marked delivered, not sent again.
// A service without that rule would take the second send: so an attempt that
// follows one which may have reached the service (unconfirmed_send) first
// looks for the application among those the board created for the campaign
// since the row was stored (findDelivered), and sends only when it is not there.
// That look goes by the candidate's email, so it passes over the applications
// another row of the outbox recorded as its own: in a service taking
// duplicates, the same candidate's earlier application to the same campaign
// is not taken for this row's.
import type { ResumeType } from '../../contract/index.ts';
import type { RecruitmentClient } from '../../client/index.ts';
import { StreamedFile } from '../../client/index.ts';
import * as clientErrors from '../../client/errors.ts';
import type { FieldProblem } from '../http/problem.ts';
import { fieldProblems } from './field-problems.ts';
import { ResumeMissingError, isSpontaneous } from '../storage/outbox/application-store.ts';
import type { OutboxRow, OutboxStore, Outcome } from '../storage/outbox/application-store.ts';
import { blockingReason } from './delivery-block.ts';
import type { BlockReason } from './delivery-block.ts';
import { companyNote, refusesSource } from './application-source.ts';
import type { Sending } from './application-source.ts';

/** The two client calls delivery makes. */
export type DeliveryClient = Pick<RecruitmentClient, 'jobboards' | 'applications'>;

export type AttemptResult =
  | {
      kind: 'delivered';
      outcome: Extract<Outcome, 'created_applicant' | 'created_application' | 'found_delivered'>;
      applicantId?: number;
      applicationId?: number;
    }
  | { kind: 'already_applied' }
  | {
      kind: 'rejected';
      outcome: Extract<Outcome, 'upstream_rejected' | 'campaign_closed'>;
      errors: FieldProblem[];
      error: string;
    }
  /** `reached`: the failed attempt may have reached the service (and created the application). `blocks`: no attempt can succeed (delivery-block.ts). */
  | { kind: 'retry'; error: string; retryAfterMs?: number; reached: boolean; blocks?: BlockReason }
  /** The store no longer has the resume the row holds: nothing was sent, and no later attempt could send it. */
  | { kind: 'resume_missing'; error: string };

/** What an error of the client means for this row: try again later, or stop. */
export function classify(
  error: unknown,
): Exclude<AttemptResult, { kind: 'delivered' } | { kind: 'already_applied' } | { kind: 'resume_missing' }> {
  if (error instanceof clientErrors.RateLimitError) {
    return {
      kind: 'retry',
      error: `rate_limited (${error.status ?? '-'})`,
      reached: false,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    };
  }
  // A 5xx may come after the service committed; a cut connection or a timeout may hide its answer.
  if (error instanceof clientErrors.ServerError || error instanceof clientErrors.TimeoutError)
    return { kind: 'retry', error: `${error.code} (${error.status ?? 'no answer'})`, reached: true };
  if (error instanceof clientErrors.ConnectionError)
    return { kind: 'retry', error: `${error.code} (no answer)`, reached: error.mayHaveReachedServer };
  // Our keys or scopes are wrong: an operator fixes the configuration, the application waits.
  if (error instanceof clientErrors.AuthenticationError || error instanceof clientErrors.PermissionError) {
    const blocks = blockingReason(error);
    return {
      kind: 'retry',
      error: `${error.code} (${error.status ?? '-'})`,
      reached: false,
      ...(blocks === undefined ? {} : { blocks }),
    };
  }
  // The service acted but answered something we cannot read: the next attempt looks for what it created.
  if (error instanceof clientErrors.SchemaError)
    return { kind: 'retry', error: `unreadable answer (${error.code})`, reached: true };
  if (
    error instanceof clientErrors.ValidationError ||
    error instanceof clientErrors.NotFoundError ||
    (error instanceof clientErrors.ApiError && error.status !== undefined && error.status >= 400 && error.status < 500)
  ) {
    const apiError = error as clientErrors.ApiError;
    if (
      apiError.code === 'campaign_not_open' ||
      apiError.code === 'campaign_not_broadcast' ||
      apiError instanceof clientErrors.NotFoundError
    ) {
      return {
        kind: 'rejected',
        outcome: 'campaign_closed',
        errors: [],
        error: `${apiError.code} (${apiError.status ?? '-'})`,
      };
    }
    return {
      kind: 'rejected',
      outcome: 'upstream_rejected',
      errors: fieldProblems(apiError),
      error: `${apiError.code} (${apiError.status ?? '-'})`,
    };
  }
  if (error instanceof clientErrors.ApiError)
    return { kind: 'retry', error: `${error.code} (${error.status ?? '-'})`, reached: true };
  return { kind: 'retry', error: `unexpected: ${error instanceof Error ? error.name : 'error'}`, reached: true };
}

/** Applications created before the row was stored are not its own; this much earlier still counts, for clocks apart. */
const CLOCK_SKEW_MS = 10 * 60_000;

/**
 * The application an earlier attempt of this row created, if the service holds
 * one: the board's applications to the campaign (GET /applications, which a
 * job-board client reads for the applications it created), newest first,
 * page after page until they are older than the row, passing over those
 * another row recorded. Throws the client's error when the service cannot be
 * read: then nothing is sent.
 */
export async function findDelivered(
  row: OutboxRow,
  email: string,
  client: DeliveryClient,
  timeoutMs: number,
  outbox: Pick<DeliveryOutbox, 'recordedApplication'>,
): Promise<{ applicantId: number; applicationId: number } | undefined> {
  const wanted = email.trim().toLowerCase();
  const since = row.created_at - CLOCK_SKEW_MS;
  for (let page = 1; ; page++) {
    const { data, pagination } = await client.applications.list(
      { campaign_id: row.campaign_id, embed: ['applicant'], sort: 'desc', per_page: 50, page },
      { priority: 'high', timeout: timeoutMs },
    );
    for (const application of data) {
      if (application.applicant.email.trim().toLowerCase() !== wanted) continue;
      const recordedBy = await outbox.recordedApplication(application.id);
      if (recordedBy === undefined || recordedBy === row.reference)
        return { applicantId: application.applicant_id, applicationId: application.id };
    }
    const oldest = data.at(-1);
    if (oldest === undefined || Date.parse(oldest.created_at) < since || pagination['next-page'] === null)
      return undefined;
  }
}

/**
 * What an attempt reads of the outbox: the row's stored resume (openResume),
 * and which row recorded an application of the service (recordedApplication).
 */
export type DeliveryOutbox = Pick<OutboxStore, 'openResume' | 'recordedApplication'>;

/** How the application's source fared in an attempt: refused by the service (then sent without), or left out from the start (a remembered refusal). */
export type SourceFate = 'refused' | 'dropped';

/**
 * One attempt to deliver a claimed row (its `attempts` already counts this
 * one). The resume is streamed from the outbox into the request body as
 * base64, never loaded whole. Never throws: every failure becomes an AttemptResult.
 *
 * With `sending`, the application carries the board's source, unless its
 * company refused it (remembered, or this row already went without it). A
 * definite refusal of the source (a 4xx naming it: nothing was created) is
 * remembered and the application sent once more without it, in the same
 * attempt; `source` on the result tells the worker.
 */
export async function attemptDelivery(
  row: OutboxRow,
  client: DeliveryClient,
  timeoutMs: number,
  outbox: DeliveryOutbox,
  sending?: Sending,
): Promise<AttemptResult & { source?: SourceFate }> {
  let fate: SourceFate | undefined;
  // A spontaneous application has no application to carry the source (the board's client that creates the applicant names the board).
  if (isSpontaneous(row)) return deliverSpontaneous(row, client, timeoutMs, outbox);
  if (sending !== undefined && (row.source_dropped === 1 || (await refusedBefore(row, sending)))) fate = 'dropped';
  const result = await deliver(row, client, timeoutMs, outbox, sending, fate === undefined, () => {
    fate = 'refused';
  });
  return fate === undefined ? result : { ...result, source: fate };
}

/** Whether the row's company refused the source within the day; a store that cannot tell sends it (a refusal would follow, and the re-send). */
async function refusedBefore(row: OutboxRow, sending: Sending): Promise<boolean> {
  try {
    return await sending.refusals.sourceRefused(row.company_id, sending.source);
  } catch {
    return false;
  }
}

async function deliver(
  row: OutboxRow,
  client: DeliveryClient,
  timeoutMs: number,
  outbox: DeliveryOutbox,
  sending: Sending | undefined,
  withSource: boolean,
  onRefused: () => void,
): Promise<AttemptResult> {
  if (row.payload === null)
    return { kind: 'rejected', outcome: 'upstream_rejected', errors: [], error: 'payload missing' };
  const { applicant } = row.payload;
  const resume = storedResume(row, outbox);
  const options = { priority: 'high' as const, safeToRetry: false, timeout: timeoutMs };
  /** The cover letter, then the note for the company (how it came, and through which board when without the source). */
  const commentsOf = (source: string | undefined) => {
    const note = companyNote({
      utm: row.utm ?? null,
      ...(sending !== undefined && source === undefined
        ? { withoutSource: { source: sending.source, board: sending.board } }
        : {}),
    });
    const contents = [row.payload?.cover_letter, note].filter((c) => c !== undefined);
    return contents.length === 0 ? undefined : contents.map((content) => ({ content }));
  };
  /** One send: the applicant with the application, or the application alone for a returning candidate. */
  const send = async (source: string | undefined): Promise<AttemptResult> => {
    const comments = commentsOf(source);
    const fields = { ...(source === undefined ? {} : { source }), ...(comments ? { comments } : {}) };
    try {
      const created = await client.jobboards.createApplicant(
        {
          company_id: row.company_id,
          applicant: {
            ...applicant,
            ...(resume ? { resume: resume.file } : {}),
            applications: [{ campaign_id: row.campaign_id, ...fields }],
          },
        },
        options,
      );
      const application = created.applications.find((a) => a.campaign_id === row.campaign_id);
      return {
        kind: 'delivered',
        outcome: 'created_applicant',
        applicantId: created.id,
        ...(application ? { applicationId: application.id } : {}),
      };
    } catch (error) {
      if (!(error instanceof clientErrors.ConflictError && error.code === 'applicant_exists')) throw error;
    }
    // A returning candidate: the application alone, on the existing applicant.
    const application = await client.applications.create(
      {
        campaign_id: row.campaign_id,
        applicant_email: applicant.email,
        application: { ...(resume ? { resume: resume.file } : {}), ...fields },
      },
      options,
    );
    return {
      kind: 'delivered',
      outcome: 'created_application',
      applicantId: application.applicant_id,
      applicationId: application.id,
    };
  };
  try {
    if (row.unconfirmed_send === 1) {
      const found = await findDelivered(row, applicant.email, client, timeoutMs, outbox);
      if (found !== undefined) return { kind: 'delivered', outcome: 'found_delivered', ...found };
    }
    // Opened before anything is sent: a resume the store lost must not read as a failed connection, retried for ever.
    await resume?.openBeforeSend();
    if (sending === undefined || !withSource) return await send(undefined);
    try {
      return await send(sending.source);
    } catch (error) {
      if (!refusesSource(error)) throw error;
    }
    // A definite refusal (4xx naming the source): nothing was created, so the one re-send cannot make a second application.
    onRefused();
    await sending.refusals
      .rememberSourceRefusal(row.company_id, sending.source, sending.now() + sending.refusedForMs)
      .catch(() => {
        // Not remembered: the next application to this company meets the refusal again, and is re-sent the same way.
      });
    return await send(undefined);
  } catch (error) {
    return failedAttempt(error, row, 'application_exists');
  }
}

/**
 * A spontaneous application: the applicant with its resume and no
 * application (the service takes none without an offer), so no source and no
 * comment. Exactly once: the service refuses a second applicant with one
 * email in a company (409 applicant_exists), so an attempt after the first
 * that meets it finds what an earlier attempt created; on the first, the
 * candidate already was the company's applicant.
 */
async function deliverSpontaneous(
  row: OutboxRow,
  client: DeliveryClient,
  timeoutMs: number,
  outbox: DeliveryOutbox,
): Promise<AttemptResult> {
  if (row.payload === null)
    return { kind: 'rejected', outcome: 'upstream_rejected', errors: [], error: 'payload missing' };
  const resume = storedResume(row, outbox);
  try {
    await resume?.openBeforeSend();
    const created = await client.jobboards.createApplicant(
      {
        company_id: row.company_id,
        applicant: { ...row.payload.applicant, ...(resume ? { resume: resume.file } : {}) },
      },
      { priority: 'high', safeToRetry: false, timeout: timeoutMs },
    );
    return { kind: 'delivered', outcome: 'created_applicant', applicantId: created.id };
  } catch (error) {
    return failedAttempt(error, row, 'applicant_exists');
  }
}

/**
 * What a failed attempt learnt: the store lost the resume; the service
 * already holds what this send creates (`exists`: a later attempt finds an
 * earlier one's, a first one a candidate who had applied); else classify's.
 */
function failedAttempt(
  error: unknown,
  row: OutboxRow,
  exists: 'application_exists' | 'applicant_exists',
): AttemptResult {
  if (error instanceof ResumeMissingError)
    return { kind: 'resume_missing', error: `resume_missing (${error.missing})` };
  if (error instanceof clientErrors.ConflictError && error.code === exists)
    return row.attempts > 1 ? { kind: 'delivered', outcome: 'found_delivered' } : { kind: 'already_applied' };
  return classify(error);
}

/**
 * The row's stored resume as the body's file, or undefined for a row without
 * one. `openBeforeSend` opens it before anything is sent, so that a resume
 * the store lost fails the attempt as resume_missing (ResumeMissingError), not
 * as a failed connection retried for ever; the body's first read takes that
 * stream, and a later read (a second call of the attempt) opens it again.
 */
function storedResume(
  row: OutboxRow,
  outbox: DeliveryOutbox,
): { file: StreamedFile; openBeforeSend: () => Promise<void> } | undefined {
  if (row.resume_bytes === null || row.resume_type === null) return undefined;
  let opened: AsyncIterable<Uint8Array> | undefined;
  const file = new StreamedFile({
    mime_type: row.resume_type as ResumeType,
    size: row.resume_bytes,
    open: () =>
      (async function* () {
        const stream = opened ?? (await outbox.openResume(row.reference));
        opened = undefined;
        // Gone between the claim and the send (erased meanwhile): this attempt fails, and the row is no longer in line.
        if (stream === undefined) throw new Error('the resume is no longer stored');
        yield* stream;
      })(),
  });
  return {
    file,
    openBeforeSend: async () => {
      opened = await outbox.openResume(row.reference);
    },
  };
}
