// POST /api/applications: read the form, check it, store it in the outbox,
// try to deliver it while the candidate waits (up to DELIVERY_DEADLINE_MS),
// answer. Handlers throw ProblemError; the app's error middleware answers.
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { isCampaignOpenForApplications } from '../../contract/index.ts';
import type { ProxyConfig } from '../config.ts';
import { ProblemError, validationProblem } from '../http/problem.ts';
import type { FieldProblem } from '../http/problem.ts';
import type { AttemptResult } from './delivery.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { checkForm, emailBucket, fingerprintOf } from './form.ts';
import type { CheckedForm } from './form.ts';
import type { ApplicationMetrics } from './metrics.ts';
import { CutOffError, parseApplicationForm } from './multipart.ts';
import type { ParsedForm } from './multipart.ts';
import type { ApplicationStore, OutboxRow } from '../storage/application-store.ts';
import { resumeTypeOf, unsupportedFileType } from './resume.ts';
import { DAY_MS, checkEmail, ipLimit, networkGroup, verifyCaptcha } from './spam.ts';
import type { ApplicationsCatalogue } from './types.ts';
import { admitUploads, UploadSlots } from './upload-admission.ts';
import { refuseWhileBlocked } from './delivery-block.ts';
import { QueueCeiling } from './queue-ceiling.ts';
import type { UploadSpool } from './upload-spool.ts';
import { storeFailure, storeUnavailable } from './store-failure.ts';
import type { DecoyReceipts } from '../receipt/decoy.ts';
import { newReceiptToken, receiptUrl } from '../receipt/token.ts';

export interface RouteDeps {
  config: ProxyConfig;
  catalogue: ApplicationsCatalogue;
  logger: Logger;
  /** The store once it is ready (opened and migrated): requests arriving before wait for it. */
  outbox: () => Promise<ApplicationStore>;
  worker: () => DeliveryWorker;
  metrics: ApplicationMetrics;
  /** Where resumes are written as they arrive. */
  spool: UploadSpool;
  now: () => number;
  /** Where the per-address limit counts (Backend.addressCounts). */
  addressCounts: Store;
  /** The receipt links a robot caught by the honeypot gets. */
  decoys: DecoyReceipts;
}

interface Answer {
  status: number;
  body: string;
  contentType: string;
}

const MAX_KEY_LENGTH = 200;

/** Where the candidate's receipt is (receipt/token.ts), given in the first answer so that a replay gives it too. */
type ReceiptLink = string;

function accepted(status: 201 | 202, reference: string, campaignId: number, receipt: ReceiptLink): Answer {
  return {
    status,
    body: JSON.stringify({
      status: status === 201 ? 'delivered' : 'queued',
      reference,
      campaign_id: campaignId,
      receipt_url: receipt,
    }),
    contentType: 'application/json; charset=utf-8',
  };
}

function problemAnswer(problem: ProblemError): Answer {
  return {
    status: problem.status,
    body: JSON.stringify(problem.toBody()),
    contentType: 'application/problem+json; charset=utf-8',
  };
}

function alreadyApplied(): ProblemError {
  return new ProblemError(
    'already_applied',
    'This candidate has already applied to this job offer; there is nothing more to send.',
  );
}

function campaignClosed(): ProblemError {
  return new ProblemError('campaign_closed', 'This job offer no longer takes applications on this board.');
}

function catalogueUnavailable(): ProblemError {
  return new ProblemError(
    'not_ready',
    'The job offers of this board cannot be checked right now; send the form again in a minute.',
    {
      headers: { 'Retry-After': '30' },
    },
  );
}

function campaignNotFound(): ProblemError {
  return new ProblemError('campaign_not_found', 'No job offer with this campaign_id is published on this board.');
}

/** The answer a stored application gets once its first attempt ended (or the deadline passed). */
function answerFor(
  result: AttemptResult | 'deadline' | undefined,
  reference: string,
  campaignId: number,
  receipt: ReceiptLink,
): Answer {
  if (result === undefined || result === 'deadline') return accepted(202, reference, campaignId, receipt);
  switch (result.kind) {
    case 'delivered':
      return accepted(201, reference, campaignId, receipt);
    case 'already_applied':
      return problemAnswer(alreadyApplied());
    case 'rejected':
      return problemAnswer(result.outcome === 'campaign_closed' ? campaignClosed() : validationProblem(result.errors));
    case 'retry':
      return accepted(202, reference, campaignId, receipt);
    case 'resume_missing':
      // Stored and kept, dead-lettered for an operator (who is alerted and holds the candidate's fields): received, as for one that expires.
      return accepted(202, reference, campaignId, receipt);
  }
}

/** The answer for an application stored by a process that was killed before answering. */
function answerFromRow(row: OutboxRow, receipt: ReceiptLink): Answer {
  if (row.status === 'delivered') return accepted(201, row.reference, row.campaign_id, receipt);
  if (row.status === 'rejected' && row.answered === null) {
    if (row.outcome === 'already_applied') return problemAnswer(alreadyApplied());
    if (row.outcome === 'campaign_closed') return problemAnswer(campaignClosed());
    return problemAnswer(
      validationProblem([
        { field: 'form', code: 'invalid_value', message: 'The recruitment service refused this application.' },
      ]),
    );
  }
  return accepted(202, row.reference, row.campaign_id, receipt);
}

/**
 * True when a robot filled the honeypot. A value the candidate also typed in
 * another field is an autofill that slipped through, not a robot: that
 * application goes on through every other check rather than being dropped.
 */
function isTrapped(form: ParsedForm): boolean {
  const trap = (form.fields.get('website') ?? '').trim().toLowerCase();
  if (trap === '') return false;
  for (const [name, value] of form.fields) {
    if (name !== 'website' && value.trim().toLowerCase() === trap) return false;
  }
  return true;
}

function send(res: Response, answer: Answer, replayed: boolean): void {
  res.status(answer.status);
  res.setHeader('Cache-Control', 'no-store');
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.setHeader('Content-Type', answer.contentType);
  res.send(answer.body);
}

export function applicationsRouter(deps: RouteDeps): Router {
  const { config, catalogue, metrics } = deps;
  const log = deps.logger;
  const router = Router();
  // Decided before any byte of a body is read: room in the queue, a place among the uploads in progress.
  const ceiling = new QueueCeiling({
    maxQueuedBytes: config.maxQueuedBytes,
    minFreeDiskBytes: config.minFreeDiskBytes,
    dataDir: config.dataDir,
    queuedBytes: () => deps.outbox().then((outbox) => outbox.queuedResumeBytes()),
  });
  /**
   * A store call whose failure (the database gone, the disk full) is the
   * server's: logged, and answered 503 (storage_full or not_ready) rather than 500.
   */
  function storing<T>(doing: string, work: Promise<T>): Promise<T> {
    return work.catch((error: unknown) => {
      const problem = storeFailure(error);
      log.error(
        {
          event: 'store_error',
          doing,
          code: problem.code,
          error: error instanceof Error ? error.message : String(error),
        },
        `could not ${doing}: application refused with ${problem.code}`,
      );
      throw problem;
    });
  }
  /** A write after the application is stored: it is kept whatever happens here, so the candidate still gets its answer. */
  function afterStored(doing: string, reference: string, work: Promise<void>): Promise<void> {
    return work.catch((error: unknown) => {
      log.error(
        { event: 'store_error', doing, reference, error: error instanceof Error ? error.message : String(error) },
        `could not ${doing}; the application is stored and will be delivered`,
      );
    });
  }
  const linkOf = (req: Request, token: string): ReceiptLink => receiptUrl(config.publicOrigin, req.baseUrl, token);
  const slots = new UploadSlots({
    max: config.maxConcurrentUploads,
    perAddress: config.maxConcurrentUploadsPerIp,
    perNetwork: config.maxConcurrentUploadsPerNetwork,
  });
  const admit = admitUploads({ slots, ceiling, metrics, log });

  /** Says which campaign parameters were dropped, and why, never their values (written by whoever shared the link). */
  function noteDroppedUtm(dropped: CheckedForm['droppedUtm']): void {
    if (dropped.length === 0) return;
    for (const { name } of dropped) metrics.utmDropped.inc({ field: name });
    log.warn(
      { event: 'utm_dropped', fields: dropped.map(({ name, fault }) => `${name}: ${fault}`) },
      'campaign parameters dropped: they break the rule of utm_* values; the application goes on without them',
    );
  }

  /** The campaign the application goes to, re-checked upstream when the catalogue is old. */
  async function campaignFor(id: number): Promise<{ company_id: number }> {
    const local = catalogue.getCampaign(id);
    let campaign = local;
    if (catalogue.isStale()) {
      try {
        campaign = await catalogue.refreshCampaign(id);
      } catch {
        // The service cannot answer: trust our copy; the outbox delivers (or refuses) later.
        // Without a copy there is no company to deliver to: not the candidate's fault, try later.
        if (local === undefined) throw catalogueUnavailable();
        campaign = local;
      }
    }
    if (campaign === undefined) throw local === undefined ? campaignNotFound() : campaignClosed();
    if (!isCampaignOpenForApplications(campaign.status)) throw campaignClosed();
    return campaign;
  }

  /**
   * Waits for the first attempt, or the deadline; at the deadline the row is
   * marked answered 202 first, unless the attempt ended it meanwhile (then its
   * result is the answer: a refusal recorded as rejected is never told 202).
   */
  async function firstAttempt(
    outbox: ApplicationStore,
    reference: string,
  ): Promise<AttemptResult | 'deadline' | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => {
        if (!outbox.isOpen) {
          resolve('deadline');
          return;
        }
        outbox.answerQueued(reference).then(
          (queued) => {
            // Not queued: the attempt has recorded its end, and its result settles the race.
            if (queued) resolve('deadline');
          },
          () => resolve('deadline'),
        );
      }, config.deliveryDeadlineMs);
    });
    try {
      return await Promise.race([deps.worker().deliverNow(reference), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The answer a robot that filled the honeypot gets, before any check: told
   * "queued", it learns nothing; nothing is stored or sent.
   */
  function decoyAnswer(req: Request, form: ParsedForm): Answer {
    const campaignId = Number(form.fields.get('campaign_id'));
    metrics.refused.inc({ code: 'honeypot' });
    log.info({ event: 'application_honeypot' }, 'application dropped: honeypot field filled');
    // Its receipt link is as real-looking as any, and opens a queued application's page.
    return accepted(
      202,
      randomUUID(),
      Number.isSafeInteger(campaignId) ? campaignId : 0,
      linkOf(req, deps.decoys.newToken()),
    );
  }

  /**
   * Checks everything and stores the application (resume included) in one
   * transaction; answers its reference. The resume's upload file becomes the
   * outbox's when stored.
   */
  async function checkAndStore(
    req: Request,
    form: ParsedForm,
    key: string,
    outbox: ApplicationStore,
    now: number,
  ): Promise<{ reference: string; campaignId: number; receipt: ReceiptLink }> {
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';

    const { errors, checked } = checkForm(form, config.fields, config.trackUtm);
    const resumeErrors: FieldProblem[] = [];
    const resume =
      config.fields.resume === 'hidden' || form.resume === undefined || form.resume.size === 0
        ? undefined
        : form.resume;
    if (resume === undefined && config.fields.resume === 'required') {
      resumeErrors.push({ field: 'resume', code: 'file_required', message: 'Attach your resume.' });
    }
    if (errors.length > 0 || resumeErrors.length > 0 || checked === undefined)
      throw validationProblem([...errors, ...resumeErrors]);

    if (config.captcha !== null) await verifyCaptcha(config.captcha, checked.captchaToken, ip);

    // No upload file: its first bytes were already those of no resume type.
    const resumeType = resume?.path == null ? undefined : await resumeTypeOf(resume.path);
    if (resume !== undefined && resumeType === undefined) throw unsupportedFileType();

    const campaign = await campaignFor(checked.campaignId);
    const bucket = emailBucket(checked.email);
    await checkEmail(outbox, bucket, config.applyRateLimitPerEmail, now, log);

    const reference = randomUUID();
    const receiptToken = newReceiptToken();
    await storing(
      'store the application',
      outbox.enqueue(
        {
          reference,
          campaign_id: checked.campaignId,
          company_id: campaign.company_id,
          payload: checked.payload,
          resume: resume?.path == null ? null : { path: resume.path, size: resume.size },
          resume_type: resumeType ?? null,
          utm: checked.utm,
          receipt_token: receiptToken,
        },
        {
          deadLetterAfterMs: config.deadLetterAfterHours * 60 * 60 * 1000,
          key,
          emailBucket: { bucket, windowMs: DAY_MS },
        },
      ),
    );
    if (resume?.path != null) ceiling.noteStored(resume.size);
    noteDroppedUtm(checked.droppedUtm);
    return { reference, campaignId: checked.campaignId, receipt: linkOf(req, receiptToken) };
  }

  router.post(
    '/',
    refuseWhileBlocked(() => deps.worker().blocked, metrics),
    admit,
    ipLimit(config.applyRateLimitPerIp, metrics, log, deps.addressCounts),
    async (req: Request, res: Response) => {
      const now = deps.now();
      let form: ParsedForm | undefined;
      try {
        form = await parseApplicationForm(req, config.maxResumeBytes, deps.spool, config.uploadPace);
      } catch (error) {
        if (error instanceof ProblemError) metrics.refused.inc({ code: error.code });
        if (error instanceof ProblemError && error.code === 'upload_too_slow') {
          // The network only: enough to see one trickling many uploads, nothing of the candidate.
          log.warn(
            { event: 'upload_too_slow', network: networkGroup(req.ip ?? req.socket.remoteAddress ?? 'unknown', true) },
            'an application arrived slower than UPLOAD_MIN_BYTES_PER_SECOND: closed',
          );
        }
        if (error instanceof CutOffError) {
          // Close once answered: the unread rest of the upload is never taken in.
          res.on('finish', () => setTimeout(() => req.socket.destroy(), 1000).unref());
        }
        throw error;
      }

      const parsed = form;
      try {
        await answerForm(req, res, parsed, now);
      } finally {
        // Every path but a stored application leaves its upload behind: it goes (the outbox moved a stored one away).
        if (parsed.resume?.path != null) deps.spool.discard(parsed.resume.path);
      }
    },
  );

  /** Everything after the form is read: the key, the checks, storing, the first attempt, the answer. */
  async function answerForm(req: Request, res: Response, parsed: ParsedForm, now: number): Promise<void> {
    const key = req.get('Idempotency-Key');
    if (key === undefined || key.trim() === '' || key.length > MAX_KEY_LENGTH) {
      metrics.refused.inc({ code: 'idempotency_key_missing' });
      throw new ProblemError(
        'idempotency_key_missing',
        `Send an Idempotency-Key header (1 to ${MAX_KEY_LENGTH} characters, a UUID per submission) so a retry never applies twice.`,
      );
    }

    const outbox = await deps.outbox().catch(() => {
      metrics.refused.inc({ code: 'not_ready' });
      throw storeUnavailable();
    });
    const claim = await storing('claim the Idempotency-Key', outbox.claimKey(key, fingerprintOf(parsed))).catch(
      (error: unknown) => {
        if (error instanceof ProblemError) metrics.refused.inc({ code: error.code });
        throw error;
      },
    );
    switch (claim.kind) {
      case 'replay':
        send(
          res,
          {
            status: claim.status,
            body: claim.body,
            contentType:
              claim.status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8',
          },
          true,
        );
        return;
      case 'reused':
        metrics.refused.inc({ code: 'idempotency_key_reused' });
        throw new ProblemError(
          'idempotency_key_reused',
          'This Idempotency-Key was used for a different form in the last 24 hours; send a new key for a new submission.',
        );
      case 'in_progress':
        metrics.refused.inc({ code: 'idempotency_key_in_progress' });
        throw new ProblemError(
          'idempotency_key_in_progress',
          'The first request with this Idempotency-Key is still being handled; retry in a few seconds.',
          { headers: { 'Retry-After': '2' } },
        );
      case 'stored': {
        const row = await storing('read the stored application', outbox.get(claim.reference));
        // A row of a release before receipts has no token: a new one leads to the "not available" page.
        const receipt = linkOf(req, row?.receipt_token ?? newReceiptToken());
        const answer = row === undefined ? accepted(202, claim.reference, 0, receipt) : answerFromRow(row, receipt);
        await afterStored('record the answer', claim.reference, outbox.completeKey(key, answer.status, answer.body));
        if (row !== undefined)
          await afterStored('record the answer', row.reference, outbox.setAnswered(row.reference, answer.status));
        deps.worker().poke();
        send(res, answer, true);
        return;
      }
      case 'claimed':
        break;
    }

    if (isTrapped(parsed)) {
      // Nothing written: a robot's post costs no disk write; its retry gets another decoy.
      await outbox.releaseKey(key);
      send(res, decoyAnswer(req, parsed), false);
      return;
    }

    let stored: { reference: string; campaignId: number; receipt: ReceiptLink };
    try {
      stored = await checkAndStore(req, parsed, key, outbox, now);
    } catch (error) {
      await outbox.releaseKey(key).catch(() => {});
      if (error instanceof ProblemError) metrics.refused.inc({ code: error.code });
      throw error;
    }
    const { reference, campaignId, receipt } = stored;
    metrics.received.inc();
    log.info({ event: 'application_stored', reference, campaign_id: campaignId }, 'application stored in the outbox');

    const result = await firstAttempt(outbox, reference).catch(() => undefined);
    const answer = answerFor(result, reference, campaignId, receipt);
    if (outbox.isOpen) {
      await afterStored('record the answer', reference, outbox.setAnswered(reference, answer.status));
      await afterStored('record the answer', reference, outbox.completeKey(key, answer.status, answer.body));
    }
    if (answer.status === 202) {
      metrics.queued.inc();
      deps.worker().poke();
    }
    log.info({ event: 'application_answered', reference, status: answer.status }, 'application answered');
    send(res, answer, false);
  }

  return router;
}
