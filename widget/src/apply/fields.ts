// The apply form's controls, in display order. `rule` is the field's key in
// /api/config `fields` and in the `field-*` attribute that overrides it; the
// phone's two controls share one rule and render as one group.
import type { FieldName } from '../internal/api.ts';

export type Kind = 'email' | 'text' | 'tel-code' | 'tel' | 'file' | 'textarea' | 'url' | 'checkbox';

export interface FormControl {
  /** The control's id; also the name posted, except where `posted` says otherwise. */
  id: string;
  /** The name posted to the proxy when it differs from the id. */
  posted?: string;
  rule: FieldName;
  /** The attribute that overrides the rule (on the first control of a rule). */
  attribute?: string;
  kind: Kind;
  /** Typed text kept in the session draft. */
  draft?: boolean;
  autocomplete?: string;
  maxlength?: number;
}

export const controls: readonly FormControl[] = [
  { id: 'email', rule: 'email', kind: 'email', draft: true, autocomplete: 'email' },
  { id: 'first_name', rule: 'first_name', attribute: 'field-first-name', kind: 'text', draft: true, autocomplete: 'given-name' },
  { id: 'last_name', rule: 'last_name', attribute: 'field-last-name', kind: 'text', draft: true, autocomplete: 'family-name' },
  { id: 'phone_code', rule: 'phone', attribute: 'field-phone', kind: 'tel-code', draft: true, autocomplete: 'tel-country-code', maxlength: 5 },
  { id: 'phone_number', rule: 'phone', kind: 'tel', draft: true, autocomplete: 'tel-national' },
  { id: 'resume', rule: 'resume', attribute: 'field-resume', kind: 'file' },
  { id: 'cover_letter', rule: 'cover_letter', attribute: 'field-cover-letter', kind: 'textarea', draft: true, maxlength: 10_000 },
  { id: 'bio_url', rule: 'bio_url', attribute: 'field-bio-url', kind: 'url', draft: true, autocomplete: 'url' },
  { id: 'consent', posted: 'is_legals_accepted_by_manager', rule: 'consent', attribute: 'field-consent', kind: 'checkbox' },
  { id: 'is_partner_newsletter_active', rule: 'is_partner_newsletter_active', attribute: 'field-newsletter', kind: 'checkbox' },
  { id: 'is_campaign_alert_active', rule: 'is_campaign_alert_active', attribute: 'field-job-alert', kind: 'checkbox' },
];

/** The controls of one rule (the phone has two), for rendering as one field. */
export function groups(): FormControl[][] {
  const byRule = new Map<FieldName, FormControl[]>();
  for (const control of controls) byRule.set(control.rule, [...(byRule.get(control.rule) ?? []), control]);
  return [...byRule.values()];
}
