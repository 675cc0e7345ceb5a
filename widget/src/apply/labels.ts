// The names of the form's fields in the widget's language: `label` names a
// control (its label and its line in the error summary), `statement` is the
// sentence beside a checkbox.
import { msg } from '@lit/localize';

const labels: Record<string, () => string> = {
  email: () => msg('Email'),
  first_name: () => msg('First name'),
  last_name: () => msg('Last name'),
  phone: () => msg('Phone'),
  phone_code: () => msg('Country code'),
  phone_number: () => msg('Phone number'),
  resume: () => msg('Resume'),
  // The resume's photos are the resume, to the candidate.
  resume_pages: () => msg('Resume'),
  cover_letter: () => msg('Cover letter'),
  bio_url: () => msg('Portfolio or profile URL'),
  consent: () => msg('Consent to data processing'),
  is_partner_newsletter_active: () => msg('Partner newsletter'),
  is_campaign_alert_active: () => msg('Job alerts'),
};

const statements: Record<string, () => string> = {
  consent: () => msg('I agree to the processing of my personal data to handle this application.'),
  is_partner_newsletter_active: () => msg('Send me news from the recruiter’s partners'),
  is_campaign_alert_active: () => msg('Send me similar job offers by email'),
};

/** The name of a control or of a group of controls (`phone`); the id itself when it has none. */
export function label(id: string): string {
  return labels[id]?.() ?? id;
}

/** The sentence beside a checkbox. */
export function statement(id: string): string {
  return statements[id]?.() ?? label(id);
}
