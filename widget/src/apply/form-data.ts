// What the apply form posts: the form's controls as the proxy names them,
// with the offer, the language, the resume (or its pages' photos) as the
// controller holds them, the captcha's token and the campaign parameters.
import type { WidgetConfig } from '../internal/api.ts';
import { postUtm } from '../internal/campaign-tracking.ts';
import { controls } from './fields.ts';
import { RESUME_PAGES_FIELD } from '../../../server/public-api/resume-pages.ts';

export interface Posted {
  campaignId: number;
  /** A spontaneous application's company, posted in the offer's place when there is none. */
  companyId: number;
  locale: string;
  /** The resume as the controller holds it: one kept from a draft or a past application is in no file input. */
  resume: File | null;
  pages: File[];
  config: WidgetConfig | null;
  captchaToken: string;
}

export function applicationData(form: HTMLFormElement, posted: Posted): FormData {
  const data = new FormData(form);
  data.set(posted.campaignId ? 'campaign_id' : 'company_id', String(posted.campaignId || posted.companyId));
  data.set('locale', posted.locale);
  for (const { id, posted: name } of controls) {
    if (name && data.has(id)) {
      data.delete(id);
      data.set(name, 'true');
    }
  }
  if (posted.resume) data.set('resume', posted.resume);
  else data.delete('resume');
  for (const page of posted.pages) data.append(RESUME_PAGES_FIELD, page);
  if (posted.config?.captcha) data.set('captcha_token', posted.captchaToken);
  // Empty optional text fields are left out rather than sent blank.
  for (const [name, value] of [...data.entries()]) {
    if (value === '' && name !== 'website') data.delete(name);
  }
  if (!data.has('phone_number')) data.delete('phone_code');
  postUtm(data, posted.config?.track_utm === true);
  return data;
}
