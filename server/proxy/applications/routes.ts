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
import { takesSpontaneous } from '../../public-api/spontaneous-companies.ts';
import { ProblemError, validationProblem } from '../http/problem.ts';
import type { AttemptResult } from './delivery.ts';
import {
  accepted,
  answerFor,
  answerFromRow,
  campaignClosed,
  campaignNotFound,
  catalogueUnavailable,
  companyNotFound,
  send,
} from './answers.ts';
import type { Answer, ReceiptLink } from './answers.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { checkForm, emailBucket, fingerprintOf } from './form.ts';
import type { CheckedForm } from './form.ts';
import type { ApplicationMetrics } from './metrics.ts';
import { CutOffError, parseApplicationForm } from './multipart.ts';
import type { ParsedForm } from './multipart.ts';
import type { ApplicationStore } from '../storage/outbox/application-store.ts';
import { readFormResume } from './form-resume.ts';
import { assemblePages } from './resume-pages.ts';
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

const MAX_KEY_LENGTH = 200;

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

/** POST /api/applications's handling over the router's dependencies: the form's checks, the store's calls, the answer. */
class ApplicationIntake {
  private readonly deps: RouteDeps;
  private readonly config: ProxyConfig;
  private readonly catalogue: ApplicationsCatalogue;
  private readonly metrics: ApplicationMetrics;
  private readonly log: Logger;
  /** Room in the queue, decided before any byte of a body is read. */
  readonly ceiling: QueueCeiling;

  constructor(deps: RouteDeps) {
    this.deps = deps;
    this.config = deps.config;
    this.catalogue = deps.catalogue;
    this.metrics = deps.metrics;
    this.log = deps.logger;
    const { config } = deps;
    this.ceiling = new QueueCeiling({
      maxQueuedBytes: config.maxQueuedBytes,
      minFreeDiskBytes: config.minFreeDiskBytes,
      dataDir: config.dataDir,
      queuedBytes: () => deps.outbox().then((outbox) => outbox.queuedResumeBytes()),
    });
  }

  /**
   * A store call whose failure (the database gone, the disk full) is the
   * server's: logged, and answered 503 (storage_full or not_ready) rather than 500.
   */
  private storing<T>(doing: string, work: Promise<T>): Promise<T> {
    const { log } = this;
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
  private afterStored(doing: string, reference: string, work: Promise<void>): Promise<void> {
    const { log } = this;
    return work.catch((error: unknown) => {
      log.error(
        { event: 'store_error', doing, reference, error: error instanceof Error ? error.message : String(error) },
        `could not ${doing}; the application is stored and will be delivered`,
      );
    });
  }

  private linkOf(req: Request, token: string): ReceiptLink {
    return receiptUrl(this.config.publicOrigin, req.baseUrl, token);
  }

  /** Says which campaign parameters were dropped, and why, never their values (written by whoever shared the link). */
  private noteDroppedUtm(dropped: CheckedForm['droppedUtm']): void {
    const { metrics, log } = this;
    if (dropped.length === 0) return;
    for (const { name } of dropped) metrics.utmDropped.inc({ field: name });
    log.warn(
      { event: 'utm_dropped', fields: dropped.map(({ name, fault }) => `${name}: ${fault}`) },
      'campaign parameters dropped: they break the rule of utm_* values; the application goes on without them',
    );
  }

  /** The campaign the application goes to, re-checked upstream when the catalogue is old. */
  private async campaignFor(id: number): Promise<{ company_id: number }> {
    const { catalogue } = this;
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

  /** The company of a spontaneous application: one of the catalogue's, that takes them (SPONTANEOUS_APPLICATIONS). */
  private companyFor(id: number): { company_id: number } {
    const company = this.catalogue.getCompany(id);
    if (company === undefined || !takesSpontaneous(this.config.spontaneousApplications, id))
      throw companyNotFound(id, company !== undefined);
    return { company_id: company.id };
  }

  /**
   * Waits for the first attempt, or the deadline; at the deadline the row is
   * marked answered 202 first, unless the attempt ended it meanwhile (then its
   * result is the answer: a refusal recorded as rejected is never told 202).
   */
  private async firstAttempt(
    outbox: ApplicationStore,
    reference: string,
  ): Promise<AttemptResult | 'deadline' | undefined> {
    const { deps, config } = this;
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
  private decoyAnswer(req: Request, form: ParsedForm): Answer {
    const { deps, metrics, log } = this;
    const campaignId = Number(form.fields.get('campaign_id'));
    metrics.refused.inc({ code: 'honeypot' });
    log.info({ event: 'application_honeypot' }, 'application dropped: honeypot field filled');
    // Its receipt link is as real-looking as any, and opens a queued application's page.
    return accepted(
      202,
      randomUUID(),
      Number.isSafeInteger(campaignId) ? campaignId : 0,
      this.linkOf(req, deps.decoys.newToken(campaignId, deps.now())),
    );
  }

  /**
   * Checks everything and stores the application (resume included) in one
   * transaction; answers its reference. The resume's upload file becomes the
   * outbox's when stored.
   */
  private async checkAndStore(
    req: Request,
    form: ParsedForm,
    key: string,
    outbox: ApplicationStore,
    now: number,
  ): Promise<{ reference: string; campaignId: number; receipt: ReceiptLink }> {
    const { config, log, ceiling } = this;
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';

    const { errors, checked } = checkForm(form, config.fields, config.trackUtm);
    const sent = await readFormResume(form, config.fields.resume);
    if (errors.length > 0 || sent.problems.length > 0 || checked === undefined)
      throw validationProblem([...errors, ...sent.problems, ...(sent.wrongFile?.errors ?? [])]);

    if (config.captcha !== null) await verifyCaptcha(config.captcha, checked.captchaToken, ip);

    if (sent.wrongFile !== undefined) throw sent.wrongFile;
    let { file: resume, type: resumeType } = sent;
    if (sent.photographed) {
      // The form's resume from here on, a PDF of ours: stored, or deleted with the form's other uploads.
      resume = form.resume = await assemblePages(form.pages, this.deps.spool, config.maxResumeBytes);
      resumeType = 'pdf';
    }

    const campaign =
      checked.companyId === undefined ? await this.campaignFor(checked.campaignId) : this.companyFor(checked.companyId);
    const bucket = emailBucket(checked.email);
    await checkEmail(outbox, bucket, config.applyRateLimitPerEmail, now, log);

    const reference = randomUUID();
    const receiptToken = newReceiptToken();
    await this.storing(
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
          firstAttemptAfterMs: config.deliveryDeadlineMs,
          key,
          emailBucket: { bucket, windowMs: DAY_MS },
        },
      ),
    );
    if (resume?.path != null) ceiling.noteStored(resume.size);
    this.noteDroppedUtm(checked.droppedUtm);
    return { reference, campaignId: checked.campaignId, receipt: this.linkOf(req, receiptToken) };
  }

  /** Reads the form, then answers it; whatever upload a stored application did not take goes. */
  async receive(req: Request, res: Response): Promise<void> {
    const { deps, config, metrics, log } = this;
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
      await this.answerForm(req, res, parsed, now);
    } finally {
      // Every path but a stored application leaves its uploads behind: they go (the outbox moved a stored one away).
      for (const upload of [parsed.resume, ...parsed.pages]) if (upload?.path != null) deps.spool.discard(upload.path);
    }
  }

  /** Everything after the form is read: the key, the checks, storing, the first attempt, the answer. */
  private async answerForm(req: Request, res: Response, parsed: ParsedForm, now: number): Promise<void> {
    const { deps, metrics, log } = this;
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
    const claim = await this.storing('claim the Idempotency-Key', outbox.claimKey(key, fingerprintOf(parsed))).catch(
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
        const row = await this.storing('read the stored application', outbox.get(claim.reference));
        // A row of a release before receipts has no token: a new one leads to the "not available" page.
        const receipt = this.linkOf(req, row?.receipt_token ?? newReceiptToken());
        const answer = row === undefined ? accepted(202, claim.reference, 0, receipt) : answerFromRow(row, receipt);
        await this.afterStored(
          'record the answer',
          claim.reference,
          outbox.completeKey(key, answer.status, answer.body),
        );
        if (row !== undefined)
          await this.afterStored('record the answer', row.reference, outbox.setAnswered(row.reference, answer.status));
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
      send(res, this.decoyAnswer(req, parsed), false);
      return;
    }

    let stored: { reference: string; campaignId: number; receipt: ReceiptLink };
    try {
      stored = await this.checkAndStore(req, parsed, key, outbox, now);
    } catch (error) {
      await outbox.releaseKey(key).catch(() => {});
      if (error instanceof ProblemError) metrics.refused.inc({ code: error.code });
      throw error;
    }
    const { reference, campaignId, receipt } = stored;
    metrics.received.inc();
    log.info({ event: 'application_stored', reference, campaign_id: campaignId }, 'application stored in the outbox');

    const result = await this.firstAttempt(outbox, reference).catch(() => undefined);
    const answer = answerFor(result, reference, campaignId, receipt);
    if (outbox.isOpen) {
      await this.afterStored('record the answer', reference, outbox.setAnswered(reference, answer.status));
      await this.afterStored('record the answer', reference, outbox.completeKey(key, answer.status, answer.body));
    }
    if (answer.status === 202) {
      metrics.queued.inc();
      deps.worker().poke();
    }
    log.info({ event: 'application_answered', reference, status: answer.status }, 'application answered');
    send(res, answer, false);
  }
}

export function applicationsRouter(deps: RouteDeps): Router {
  const { config, metrics } = deps;
  const log = deps.logger;
  const router = Router();
  const intake = new ApplicationIntake(deps);
  // Decided before any byte of a body is read: room in the queue, a place among the uploads in progress.
  const slots = new UploadSlots({
    max: config.maxConcurrentUploads,
    perAddress: config.maxConcurrentUploadsPerIp,
    perNetwork: config.maxConcurrentUploadsPerNetwork,
  });
  const admit = admitUploads({ slots, ceiling: intake.ceiling, metrics, log });
  router.post(
    '/',
    refuseWhileBlocked(() => deps.worker().blocked, metrics),
    admit,
    ipLimit(config.applyRateLimitPerIp, metrics, log, deps.addressCounts),
    (req: Request, res: Response) => intake.receive(req, res),
  );
  return router;
}
