// The answers POST /api/applications gives: accepted (201 delivered, 202 queued,
// with the candidate's receipt link) or a problem, for a first attempt's
// result or for a row a replayed request finds stored.
import type { Response } from 'express';
import { ProblemError, validationProblem } from '../http/problem.ts';
import type { AttemptResult } from './delivery.ts';
import { applicationTarget, isSpontaneous } from '../storage/outbox/application-store.ts';
import type { OutboxRow } from '../storage/outbox/application-store.ts';

export interface Answer {
  status: number;
  body: string;
  contentType: string;
}

/** Where the candidate's receipt is (receipt/token.ts), given in the first answer so that a replay gives it too. */
export type ReceiptLink = string;

/** `campaignId`: NO_CAMPAIGN for a spontaneous application. */
export function accepted(status: 201 | 202, reference: string, campaignId: number, receipt: ReceiptLink): Answer {
  return {
    status,
    body: JSON.stringify({
      status: status === 201 ? 'delivered' : 'queued',
      reference,
      ...applicationTarget(campaignId),
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

function alreadyApplied(campaignId: number): ProblemError {
  return new ProblemError(
    'already_applied',
    isSpontaneous({ campaign_id: campaignId })
      ? 'This candidate is already among the applicants of this company; there is nothing more to send.'
      : 'This candidate has already applied to this job offer; there is nothing more to send.',
  );
}

export function campaignClosed(): ProblemError {
  return new ProblemError('campaign_closed', 'This job offer no longer takes applications on this board.');
}

export function catalogueUnavailable(): ProblemError {
  return new ProblemError(
    'not_ready',
    'The job offers of this board cannot be checked right now; send the form again in a minute.',
    {
      headers: { 'Retry-After': '30' },
    },
  );
}

/** A spontaneous application to a company the board lists no offer of, or that does not take them (SPONTANEOUS_APPLICATIONS). */
export function companyNotFound(companyId: number, listed: boolean): ProblemError {
  return new ProblemError(
    'not_found',
    listed
      ? `Company ${companyId} takes no spontaneous applications on this board (GET /api/config lists those that do, in spontaneous_applications): apply to one of its offers.`
      : `No company with this company_id has an offer on this board: send the id of a company of its offers (company_id of GET /api/campaigns).`,
  );
}

export function campaignNotFound(): ProblemError {
  return new ProblemError('campaign_not_found', 'No job offer with this campaign_id is published on this board.');
}

/** The answer a stored application gets once its first attempt ended (or the deadline passed). */
export function answerFor(
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
      return problemAnswer(alreadyApplied(campaignId));
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
export function answerFromRow(row: OutboxRow, receipt: ReceiptLink): Answer {
  if (row.status === 'delivered') return accepted(201, row.reference, row.campaign_id, receipt);
  if (row.status === 'rejected' && row.answered === null) {
    if (row.outcome === 'already_applied') return problemAnswer(alreadyApplied(row.campaign_id));
    if (row.outcome === 'campaign_closed') return problemAnswer(campaignClosed());
    return problemAnswer(
      validationProblem([
        { field: 'form', code: 'invalid_value', message: 'The recruitment service refused this application.' },
      ]),
    );
  }
  return accepted(202, row.reference, row.campaign_id, receipt);
}

export function send(res: Response, answer: Answer, replayed: boolean): void {
  res.status(answer.status);
  res.setHeader('Cache-Control', 'no-store');
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.setHeader('Content-Type', answer.contentType);
  res.send(answer.body);
}
