// Creating applicants and applications: the rules of the API rules'
// Resources, States, Endpoints and Files (server/contract/API-RULES.md) in
// one place. Files are checked first (async, before any write); then every
// database rule is checked and every row written in one transaction, so a
// refused request leaves nothing behind.
import { randomBytes } from 'node:crypto';
import { isCampaignOpenForApplications } from '../contract/index.ts';
import type {
  ApplicantInput,
  AttachmentInput,
  CampaignStatus,
  CommentInput,
  JobboardApplicantInput,
  ResumeInput,
} from '../contract/index.ts';
import { isBroadcastOn, isJobboard } from './access.ts';
import type { CompanyRow } from './access.ts';
import type { ApiClient } from './auth.ts';
import type { SandboxContext } from './context.ts';
import { sendLegalsEmail } from './emails.ts';
import { SandboxError, ruleBroken } from './errors.ts';
import { checkFile, storeFile } from './files.ts';
import type { CheckedFile } from './files.ts';
import type { Job } from './jobs.ts';
import { recordStatusChange } from './status.ts';

/** Status of a new application (the spec lists no values; our decision). */
export const INITIAL_APPLICATION_STATUS = 'new';

export interface ApplicationFields {
  source?: string | undefined;
  tags?: string[] | undefined;
  comments?: CommentInput[] | undefined;
}

export interface CheckedComment {
  content: string | null;
  attachment: CheckedFile | undefined;
}

/** Checks every file of a request before anything is written. */
export async function checkResume(resume: ResumeInput | undefined, field: string): Promise<CheckedFile | undefined> {
  return resume === undefined ? undefined : checkFile(resume, field);
}

export async function checkComments(comments: CommentInput[] | undefined, field: string): Promise<CheckedComment[]> {
  const out: CheckedComment[] = [];
  for (const [i, comment] of (comments ?? []).entries()) {
    const attachment = comment.attachment as AttachmentInput | undefined;
    out.push({
      content: comment.content ?? null,
      attachment: attachment === undefined ? undefined : await checkFile(attachment, `${field}.${i}.attachment`),
    });
  }
  return out;
}

interface CampaignCheckRow {
  id: number;
  company_id: number;
  status: CampaignStatus;
}

/**
 * Inserts one application after checking its rules. `field` is the path of
 * the application in the body ("" for POST /applications, where fields sit at
 * the top and under "application").
 */
export function insertApplication(
  ctx: SandboxContext,
  args: {
    company: CompanyRow;
    client: ApiClient;
    campaignId: number;
    campaignField: string;
    applicantId: number;
    fields: ApplicationFields;
    fieldsPath: string;
    comments: CheckedComment[];
    resume: CheckedFile | undefined;
  },
): { id: number; jobs: Job[] } {
  const { db, clock } = ctx;
  const { company, client } = args;
  const campaign = db.get<CampaignCheckRow>(
    'SELECT id, company_id, status FROM campaigns WHERE id = ? AND company_id = ?',
    args.campaignId,
    company.id,
  );
  if (campaign === undefined) {
    throw ruleBroken('unknown_reference', args.campaignField, `no campaign of company ${company.id} has this id`);
  }
  // Rule (API rules: Endpoints, POST /jobboards/applicants): the campaign must be broadcast on the calling job board.
  if (isJobboard(client) && !isBroadcastOn(db, campaign.id, client.channel)) {
    throw ruleBroken(
      'campaign_not_broadcast',
      args.campaignField,
      `campaign ${campaign.id} is not broadcast on the channel "${client.channel}"`,
    );
  }
  // Rule (API rules: States): an application needs an online, draft or standby campaign.
  if (!isCampaignOpenForApplications(campaign.status)) {
    throw ruleBroken(
      'campaign_not_open',
      args.campaignField,
      `campaign ${campaign.id} is ${campaign.status}; applications need an online, draft or standby campaign`,
    );
  }
  // Rule (API rules: Resources): the source must belong to the company's sources list.
  const source = args.fields.source;
  if (source !== undefined) {
    const sources = JSON.parse(company.sources) as string[];
    if (!sources.includes(source)) {
      throw ruleBroken(
        'source_not_allowed',
        join(args.fieldsPath, 'source'),
        `is not one of the company's sources (${sources.length === 0 ? 'none defined' : sources.join(', ')})`,
      );
    }
  }
  const existing = db.get<{ id: number }>(
    'SELECT id FROM applications WHERE applicant_id = ? AND campaign_id = ?',
    args.applicantId,
    campaign.id,
  );
  // A sandbox setting (PATCH /_sandbox/companies/:id): 'accept' behaves as a service without this rule, for tests of exactly-once delivery.
  if (existing !== undefined && company.duplicate_applications === 'refuse') {
    throw new SandboxError(
      'application_exists',
      `Applicant ${args.applicantId} already applied to campaign ${campaign.id} (application ${existing.id}).`,
      [{ field: args.campaignField, message: `already applied: application ${existing.id}`, existing_id: existing.id }],
    );
  }

  const now = clock.iso();
  const id = db.insert(
    `INSERT INTO applications (company_id, campaign_id, applicant_id, created_by_client, source, status, status_changed_at, is_complete, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
    company.id,
    campaign.id,
    args.applicantId,
    client.id,
    source ?? null,
    INITIAL_APPLICATION_STATUS,
    now,
    now,
    now,
  );
  // The traffic log's record of this request learns what it created, once (and only if) it is committed.
  db.afterCommit(() => ctx.traffic.noteCreated(id));
  recordStatusChange(db, id, INITIAL_APPLICATION_STATUS, now);
  for (const tag of allowedTags(company, args.fields.tags)) {
    db.run('INSERT OR IGNORE INTO application_tags (application_id, name) VALUES (?, ?)', id, tag);
  }
  const jobs: Job[] = [];
  for (const comment of args.comments) {
    const commentId = db.insert(
      'INSERT INTO comments (application_id, content, created_at) VALUES (?, ?, ?)',
      id,
      comment.content,
      now,
    );
    if (comment.attachment !== undefined) {
      jobs.push({ kind: 'attachment', commentId, path: storeFile(db, company.id, comment.attachment, now) });
    }
  }
  if (args.resume !== undefined) {
    jobs.push({ kind: 'application_resume', applicationId: id, path: storeFile(db, company.id, args.resume, now) });
  }
  return { id, jobs };
}

/** Rule (API rules: Resources): when the company restricts its tags, only authorised values are taken; others are dropped. */
export function allowedTags(company: CompanyRow, tags: string[] | undefined): string[] {
  const wanted = [...new Set((tags ?? []).map((t) => t.trim()).filter((t) => t !== ''))];
  if (company.restricted_tags === null) return wanted;
  const allowed = new Set(JSON.parse(company.restricted_tags) as string[]);
  return wanted.filter((t) => allowed.has(t));
}

/** Inserts an applicant; 409 applicant_exists when the email is already used in the company. */
export function insertApplicant(
  ctx: SandboxContext,
  args: {
    company: CompanyRow;
    client: ApiClient;
    input: ApplicantInput | JobboardApplicantInput;
    origin: string;
  },
): number {
  const { db, clock } = ctx;
  const { company, input } = args;
  const existing = db.get<{ id: number }>(
    'SELECT id FROM applicants WHERE company_id = ? AND email = ? COLLATE NOCASE',
    company.id,
    input.email,
  );
  if (existing !== undefined) {
    throw new SandboxError(
      'applicant_exists',
      `An applicant with this email already exists (id ${existing.id}); add the application with POST /applications.`,
      [{ field: 'applicant.email', message: `already used by applicant ${existing.id}`, existing_id: existing.id }],
    );
  }
  const pools = 'pools' in input ? (input.pools ?? []) : [];
  for (const [i, poolId] of pools.entries()) {
    if (db.get('SELECT 1 AS yes FROM pools WHERE id = ? AND company_id = ?', poolId, company.id) === undefined) {
      throw ruleBroken('unknown_reference', `applicant.pools.${i}`, `no pool of company ${company.id} has this id`);
    }
  }
  const now = clock.iso();
  const legalsAccepted = input.is_legals_accepted_by_manager === true;
  const legalsToken = legalsAccepted ? null : randomBytes(16).toString('hex');
  const id = db.insert(
    `INSERT INTO applicants (company_id, created_by_client, email, first_name, last_name, locale, phone_code, phone_number, avatar_url,
       iso_country, is_partner_newsletter_active, is_campaign_alert_active, is_legals_accepted_by_manager, bio_url, address, legals_token,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    company.id,
    args.client.id,
    input.email,
    input.first_name ?? null,
    input.last_name ?? null,
    input.locale ?? null,
    input.phone_code ?? null,
    input.phone_number ?? null,
    input.avatar_url ?? null,
    input.iso_country ?? null,
    input.is_partner_newsletter_active === true ? 1 : 0,
    input.is_campaign_alert_active === true ? 1 : 0,
    legalsAccepted ? 1 : 0,
    input.bio_url ?? null,
    input.address === undefined ? null : JSON.stringify(input.address),
    legalsToken,
    now,
    now,
  );
  for (const poolId of new Set(pools))
    db.run('INSERT INTO applicant_pools (applicant_id, pool_id) VALUES (?, ?)', id, poolId);
  if (legalsToken !== null) {
    sendLegalsEmail(db, {
      companyId: company.id,
      companyName: company.name,
      applicantId: id,
      to: input.email,
      locale: input.locale ?? null,
      link: `${args.origin}/legals/${legalsToken}`,
      now,
    });
  }
  return id;
}

/**
 * POST /applicants and POST /jobboards/applicants: the applicant, its resume
 * and its nested applications, all or nothing. An applicant resume sent with
 * nested applications is their resume too (our decision): they become
 * complete once it is processed.
 */
export async function createApplicantWithApplications(
  ctx: SandboxContext,
  args: { company: CompanyRow; client: ApiClient; input: ApplicantInput | JobboardApplicantInput; origin: string },
): Promise<{ applicantId: number; applicationIds: number[] }> {
  const resume = await checkResume(args.input.resume, 'applicant.resume');
  const nested = args.input.applications ?? [];
  const comments: CheckedComment[][] = [];
  for (const [i, app] of nested.entries())
    comments.push(await checkComments(app.comments, `applicant.applications.${i}.comments`));

  const { db, clock } = ctx;
  const result = db.transaction(() => {
    const applicantId = insertApplicant(ctx, args);
    const jobs: Job[] = [];
    const applicationIds: number[] = [];
    for (const [i, app] of nested.entries()) {
      const created = insertApplication(ctx, {
        company: args.company,
        client: args.client,
        campaignId: app.campaign_id,
        campaignField: `applicant.applications.${i}.campaign_id`,
        applicantId,
        fields: app,
        fieldsPath: `applicant.applications.${i}`,
        comments: comments[i] ?? [],
        resume: undefined,
      });
      applicationIds.push(created.id);
      jobs.push(...created.jobs);
    }
    if (resume !== undefined) {
      jobs.push({
        kind: 'applicant_resume',
        applicantId,
        applicationIds,
        path: storeFile(db, args.company.id, resume, clock.iso()),
      });
    }
    return { applicantId, applicationIds, jobs };
  });
  ctx.jobs.add(...result.jobs);
  return { applicantId: result.applicantId, applicationIds: result.applicationIds };
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
