// The outbox: emails the service would send, kept readable at
// GET /_sandbox/emails instead of being sent (API rules: Resources; production
// really emails applicants).
import type { Database } from './db.ts';

const SUBJECTS: Record<string, string> = {
  fr: 'Acceptez les conditions générales pour finaliser votre candidature',
  en: 'Accept the terms and conditions to complete your application',
  es: 'Acepte los términos y condiciones para completar su candidatura',
};

const BODIES: Record<string, (company: string, link: string) => string> = {
  fr: (company, link) =>
    `Bonjour,\n\n${company} a reçu votre candidature. Pour que vos données soient conservées, acceptez les conditions générales : ${link}\n`,
  en: (company, link) =>
    `Hello,\n\n${company} received your application. To let them keep your data, accept the terms and conditions: ${link}\n`,
  es: (company, link) =>
    `Hola,\n\n${company} ha recibido su candidatura. Para que conserven sus datos, acepte los términos y condiciones: ${link}\n`,
};

/** Rule (API rules: Resources): when is_legals_accepted_by_manager is not true at creation, the applicant gets this email. */
export function sendLegalsEmail(
  db: Database,
  args: {
    companyId: number;
    companyName: string;
    applicantId: number;
    to: string;
    locale: string | null;
    link: string;
    now: string;
  },
): void {
  const locale = args.locale !== null && args.locale in SUBJECTS ? args.locale : 'en';
  db.run(
    'INSERT INTO emails (company_id, applicant_id, kind, "to", subject, body, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    args.companyId,
    args.applicantId,
    'legal_terms',
    args.to,
    SUBJECTS[locale]!,
    BODIES[locale]!(args.companyName, args.link),
    args.now,
  );
}

export interface Email {
  id: number;
  company_id: number;
  applicant_id: number | null;
  kind: string;
  to: string;
  subject: string;
  body: string;
  sent_at: string;
}

/** The outbox, oldest first; `to` keeps only the emails sent to that address (case-insensitive). */
export function listEmails(db: Database, to?: string): Email[] {
  const columns = 'id, company_id, applicant_id, kind, "to", subject, body, sent_at';
  return to === undefined
    ? db.all<Email>(`SELECT ${columns} FROM emails ORDER BY id`)
    : db.all<Email>(`SELECT ${columns} FROM emails WHERE "to" = ? COLLATE NOCASE ORDER BY id`, to);
}
