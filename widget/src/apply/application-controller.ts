// The state of one application, apart from how it looks: the typed values and
// their session draft (the resume's in IndexedDB), the candidate's details
// kept on this device when they opt in (quick apply), validation, the
// FormData, the idempotency key and the upload. The element renders what this holds and forwards the candidate's
// actions to it.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { msg, str } from '@lit/localize';
import { getCampaign, loadConfig, submitApplication } from '../internal/api.ts';
import type { CampaignSummary, FieldName, FieldRule, Upload, WidgetConfig } from '../internal/api.ts';
import { clearAllDrafts, clearDraft, loadDraft, saveDraft } from '../internal/draft.ts';
import type { Draft } from '../internal/draft.ts';
import {
  JobboardApplyErrorEvent,
  JobboardApplySubmitEvent,
  JobboardApplySuccessEvent,
  JobboardUploadProgressEvent,
} from '../internal/events.ts';
import { formatBytes } from '../internal/format.ts';
import { Loader } from '../internal/loader.ts';
import { fieldMessage, notRealFile, problemMessage } from '../internal/messages.ts';
import type { Locale } from '../internal/localize.ts';
import { uuid } from '../internal/uuid.ts';
import { mapFailure } from './error-mapper.ts';
import { applicationData } from './form-data.ts';
import type { Banner } from './error-mapper.ts';
import { controls, fieldAttributes } from './fields.ts';
import { extensionOf, notResumeContent } from './resume-content.ts';
import { EMAIL_PATTERN } from '../../../server/public-api/application-form.ts';
import { RESUME_PAGES_FIELD } from '../../../server/public-api/resume-pages.ts';
import { DeviceKeeping } from './device-keeping.ts';
import type { Kept, Store } from './device-keeping.ts';
import type { Profile } from './device-store.ts';

export type { Store } from './device-keeping.ts';

/**
 * `error`: the form could not be loaded; `gone`: the offer is closed or unknown; `refused`: the proxy
 * does not allow this page's origin. None shows the form.
 */
export type Phase = 'loading' | 'error' | 'gone' | 'refused' | 'form' | 'uploading' | 'success' | 'already-applied';

/** What the controller needs of its element. */
export interface ApplicationHost extends ReactiveControllerHost, HTMLElement {
  endpoint: string;
  campaignId: number;
  companyId: number;
  /** The offer, when the page has it already. */
  offer: CampaignSummary | undefined;
  noDraft: boolean;
  /** No "Remember me on this device": nothing kept for the next applications, nothing read. */
  noQuickApply: boolean;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** The element's language and its BCP 47 tag, as they are at the time they are read. */
export interface Language {
  readonly locale: Locale;
  readonly tag: string;
}

const draftKept = new Set(controls.filter((c) => c.draft).map((c) => c.id));
const remembered = controls.filter((c) => c.remember).map((c) => c.id);
const defaultPhoneCode: Record<Locale, string> = { fr: '+33', es: '+34', en: '+44' };

export class ApplicationController implements ReactiveController {
  phase: Phase = 'loading';
  config: WidgetConfig | null = null;
  values: Draft = {};
  resume: File | null = null;
  /** Photos of a paper resume's pages, scaled down, in order: sent in the resume's place. */
  pages: File[] = [];
  errors: Record<string, string> = {};
  /** The fields listed in the error summary, in form order. */
  summary: string[] = [];
  banner: Banner | null = null;
  progress = 0;
  outcome: 'delivered' | 'queued' | null = null;
  /** The candidate's receipt page on the proxy (the answer's receipt_url, resolved against the endpoint). */
  receipt: string | null = null;
  /** Text of the live region. */
  announcement = '';
  captchaToken = '';
  /** The candidate's details kept on this device, which filled the form (shown as one line until edited). */
  profile: Profile | null = null;
  /** The kept details' fields are shown, for editing. */
  editing = false;
  /** "Remember me on this device" is ticked. */
  remember = false;
  /** The quick apply module, once loaded. */
  get kit(): Store | null {
    return this.device.kit;
  }

  private readonly host: ApplicationHost;
  private readonly language: Language;
  private idempotencyKey: string | null = null;
  /** Set by any edit once a key exists: edited content needs a new key. */
  private editedSinceKey = false;
  private upload: Upload | null = null;
  private readonly loading: Loader<WidgetConfig>;
  private lastAnnouncedQuarter = -1;
  /** The last resume whose first bytes were read, and what they said (notResumeContent). */
  private content: [File | null, string | undefined] = [null, undefined];
  /** The reading of the resume chosen last. */
  private reading: Promise<void> = Promise.resolve();
  private readonly device: DeviceKeeping;

  constructor(host: ApplicationHost, language: Language, store = (): Promise<Store> => import('./quick-apply.ts')) {
    this.host = host;
    this.language = language;
    this.device = new DeviceKeeping(host, store);
    this.loading = new Loader(host);
    host.addController(this);
  }

  hostDisconnected(): void {
    this.upload?.abort();
  }

  /** Every change the element shows goes through here, so that it renders again. */
  private set(changes: Partial<ApplicationController>): void {
    Object.assign(this, changes);
    this.host.requestUpdate();
  }

  async load(): Promise<void> {
    const { endpoint, campaignId, offer } = this.host;
    this.set({ phase: 'loading' });
    let kept: Kept = [];
    const shown = await this.loading.run(async () => {
      // The offer is checked first: a candidate must not fill in the form of an offer that takes no more applications.
      const check = campaignId && offer?.id !== campaignId ? getCampaign(endpoint, campaignId) : null;
      return (await Promise.all([loadConfig(endpoint), check, this.device.read().then((k) => (kept = k))]))[0];
    });
    // A newer load (another offer, another proxy) took this one's place.
    if (!shown) return;
    const { status, value } = this.loading;
    if (status !== 'ready') {
      this.set({ phase: status as Phase });
      return;
    }
    this.config = value;
    const [profile = null, resume] = kept;
    const values = { ...profile?.values, ...(this.host.noDraft ? {} : loadDraft(endpoint, campaignId)) };
    values.phone_code ??= defaultPhoneCode[this.language.locale];
    this.set({
      values,
      resume: resume ?? profile?.resume ?? this.resume,
      profile,
      remember: !!profile,
      editing: false,
      phase: 'form',
    });
  }

  /** Re-opens an empty form after a success, for another application. */
  reset(): void {
    this.set({ outcome: null, errors: {}, summary: [], banner: null, resume: null, pages: [] });
    void this.load();
  }

  /**
   * The rule for a field: the attribute override wins, except that a field the proxy requires
   * stays required (the proxy would refuse it); no offer, no cover letter (the service keeps one on an application).
   */
  rule(name: FieldName): FieldRule {
    if (name === 'email') return 'required';
    if (name === 'cover_letter' && !this.host.campaignId) return 'hidden';
    const fromProxy = this.config?.fields[name] ?? 'optional';
    // The element's `field-*` property of the rule ('' when not set).
    const property = fieldAttributes.find((f) => f.rule === name)?.property;
    const wanted = property ? String((this.host as unknown as Record<string, unknown>)[property]) : '';
    if (fromProxy === 'required' || !['required', 'optional', 'hidden'].includes(wanted)) return fromProxy;
    return wanted as FieldRule;
  }

  resumeLimit(): string | undefined {
    return this.config ? formatBytes(this.language.tag, this.config.resume.max_bytes) : undefined;
  }

  control(id: string): HTMLInputElement | HTMLTextAreaElement | null {
    return this.host.renderRoot.querySelector(`input#${id}, textarea#${id}`);
  }

  /** The error of one control, from the browser's constraint validation and the proxy's rules. */
  check(id: string): string | null {
    const el = this.control(id);
    if (!el) return null;
    if (id === 'resume') return this.checkResume();
    const v = el.validity;
    const kind = controls.find((c) => c.id === id)?.kind;
    // A number needs its country code: the proxy asks for it even when the phone is optional.
    if (v.valueMissing || (id === 'phone_code' && !el.value && this.control('phone_number')?.value))
      return fieldMessage(id === 'consent' ? 'consent_required' : 'required');
    // The proxy's rule, stricter than the browser's (which takes name@example).
    if (kind === 'email' && (v.typeMismatch || (el.value && !EMAIL_PATTERN.test(el.value))))
      return fieldMessage('invalid_email');
    if (kind === 'url' && (v.typeMismatch || !/^$|^https?:\/\//i.test(el.value))) return fieldMessage('invalid_url');
    if (kind?.startsWith('tel') && v.patternMismatch) return fieldMessage('invalid_phone');
    if (v.tooLong) return fieldMessage('too_long');
    return null;
  }

  private checkResume(): string | null {
    const config = this.config;
    if (!config) return null;
    if (!this.resume)
      return this.rule('resume') === 'required' && this.pages.length === 0 ? fieldMessage('file_required') : null;
    const extension = this.resume.name.split('.').pop()?.toLowerCase() ?? '';
    const types = config.resume.types.map((t) => t.toLowerCase());
    if (!types.includes(extension === 'jpeg' ? 'jpg' : extension)) return fieldMessage('unsupported_file_type');
    if (this.resume.size > config.resume.max_bytes) return fieldMessage('file_too_large', this.resumeLimit());
    const [read, content] = this.content;
    return read === this.resume && content !== undefined ? notRealFile(extensionOf(read.name), content) : null;
  }

  /** Reads a chosen resume's first bytes: a wrong file is said as soon as it is chosen. */
  private async read(resume: File | null): Promise<void> {
    const content = resume ? await notResumeContent(resume) : undefined;
    this.content = [resume, content];
    if (content !== undefined && this.resume === resume) this.setError('resume', this.check('resume'));
  }

  private setError(id: string, message: string | null): void {
    const { [id]: _old, ...rest } = this.errors;
    this.set({ errors: message ? { ...rest, [id]: message } : rest });
  }

  /**
   * The resume's pages now (none: back to a resume file), and what went wrong
   * with the photos just chosen. Pages take the place of a resume file chosen
   * (the photos' module empties its input).
   */
  setPages(pages: File[], error: string | null = null): void {
    if (this.idempotencyKey) this.editedSinceKey = true;
    this.set({ pages, resume: pages.length > 0 ? null : this.resume });
    this.setError(RESUME_PAGES_FIELD, error);
    this.setError('resume', this.checkResume());
  }

  // The candidate's actions are bound (arrow functions): the element's
  // template hands them to Lit as listeners.

  /** A control changed: keep its value (and draft), and update its error once one is shown. */
  input = (e: Event): void => {
    const el = e.target as HTMLInputElement;
    if (!el.id) return;
    if (this.idempotencyKey) this.editedSinceKey = true;
    if (el.id === 'resume') {
      const resume = el.files?.[0] ?? null;
      // A resume file chosen takes the place of the pages' photos.
      this.set({ resume, pages: el.files?.length ? [] : this.pages });
      this.reading = this.read(resume);
      this.device.keepDraftResume(resume);
    }
    if (el.id === 'remember') this.set({ remember: el.checked });
    if (draftKept.has(el.id)) {
      this.values = { ...this.values, [el.id]: el.value };
      if (!this.host.noDraft) saveDraft(this.host.endpoint, this.host.campaignId, this.values);
    }
    if (el.id in this.errors || el.type === 'file' || el.type === 'checkbox') this.setError(el.id, this.check(el.id));
    // A refused file is said at once: focus stays on the picker, and a screen reader does not read the message beside it.
    // A file taken empties the region, so that the same refusal later is said again.
    if (el.type === 'file') this.set({ announcement: this.errors[el.id] ?? '' });
  };

  /** Errors after interaction only: a field is judged once the candidate leaves it with a value. */
  leave = (e: FocusEvent): void => {
    const el = e.target as HTMLInputElement;
    if (el.id && el.id !== 'website' && el.value) this.setError(el.id, this.check(el.id));
  };

  retry = (): void => {
    this.set({ banner: null });
    void this.send();
  };

  cancel = (): void => {
    this.upload?.abort();
  };

  reload = (): void => {
    void this.load();
  };

  /** "Edit": the kept details' fields, shown and focused. */
  edit = (): void => {
    this.set({ editing: true });
    void this.focus('input#email, textarea#email');
  };

  /** "Forget": erases everything kept on this device (details, resumes, drafts of every offer) and empties the form. */
  forget = async (): Promise<void> => {
    clearAllDrafts();
    await this.device.keep((s) => s.forgetAll());
    const values: Draft = { phone_code: defaultPhoneCode[this.language.locale] };
    // The controls themselves: what was typed since the last render is in no binding that would change.
    for (const el of this.host.renderRoot.querySelectorAll<HTMLInputElement>('form input[id], form textarea[id]')) {
      if (el.type === 'checkbox') el.checked = false;
      else el.value = values[el.id] ?? '';
    }
    this.set({
      profile: null,
      remember: false,
      editing: false,
      resume: null,
      values,
      announcement: msg('What this form kept on this device is erased.'),
    });
    await this.focus('input#email, textarea#email');
  };

  /** Checks every shown control, then sends, or lists the errors. */
  async submit(): Promise<void> {
    if (this.phase !== 'form') return;
    // The resume's first bytes are checked with the other fields: read by now, unless it was chosen this instant.
    if (this.content[0] !== this.resume) {
      await this.reading;
      if (this.phase !== 'form') return;
    }
    const ids = [...this.host.renderRoot.querySelectorAll<HTMLElement>('form input[id], form textarea[id]')]
      .map((el) => el.id)
      .filter((id) => id !== 'website');
    const errors: Record<string, string> = {};
    for (const id of ids) {
      const message = this.check(id);
      if (message) errors[id] = message;
    }
    this.set({ errors, banner: null });
    if (Object.keys(errors).length > 0) {
      await this.showSummary();
      return;
    }
    await this.send();
  }

  showBanner(banner: Banner): void {
    this.set({ banner });
  }

  private formData(): FormData {
    const { campaignId, companyId } = this.host;
    const { resume, pages, config, captchaToken } = this;
    const posted = { campaignId, companyId, locale: this.language.locale, resume, pages, config, captchaToken };
    return applicationData(this.host.renderRoot.querySelector('form')!, posted);
  }

  private async send(): Promise<void> {
    const { endpoint, campaignId } = this.host;
    const body = this.formData();
    if (!this.idempotencyKey || this.editedSinceKey) {
      this.idempotencyKey = uuid();
      this.editedSinceKey = false;
    }
    this.lastAnnouncedQuarter = -1;
    this.set({ phase: 'uploading', progress: 0, announcement: msg('Sending your application…') });
    this.host.dispatchEvent(new JobboardApplySubmitEvent(campaignId));
    this.upload = submitApplication(endpoint, body, this.idempotencyKey, (loaded, total) => {
      const progress = Math.round((loaded / total) * 100);
      this.set({ progress });
      const quarter = Math.floor(progress / 25);
      if (quarter !== this.lastAnnouncedQuarter) {
        this.lastAnnouncedQuarter = quarter;
        this.set({ announcement: msg(str`Upload ${progress}%`) });
      }
      this.host.dispatchEvent(new JobboardUploadProgressEvent(campaignId, loaded, total));
    });
    try {
      const result = await this.upload.result;
      const status = result?.status === 'queued' ? 'queued' : 'delivered';
      this.idempotencyKey = null;
      clearDraft(endpoint, campaignId);
      this.keepAfterSuccess();
      this.set({
        outcome: status,
        receipt: receiptLink(result?.receipt_url, endpoint),
        phase: 'success',
        values: {},
        announcement: msg('Application received.'),
      });
      this.host.dispatchEvent(new JobboardApplySuccessEvent(campaignId, status));
      await this.focus('#outcome');
    } catch (error) {
      await this.fail(error, campaignId);
    } finally {
      this.upload = null;
    }
  }

  /** After a success: what is kept on the device (DeviceKeeping.afterSuccess). */
  private keepAfterSuccess(): void {
    const values = Object.fromEntries(remembered.filter((id) => this.values[id]).map((id) => [id, this.values[id]!]));
    const profile = this.device.afterSuccess(values, this.resume, this.remember, this.profile !== null);
    this.set({ profile, editing: false });
  }

  private async fail(error: unknown, campaignId: number): Promise<void> {
    const failure = mapFailure(
      error,
      this.errors,
      (id) => this.control(id) !== null,
      this.resumeLimit(),
      this.resume ? extensionOf(this.resume.name) : undefined,
    );
    if (failure.forgetKey) this.idempotencyKey = null;
    if (failure.alreadyApplied) {
      clearDraft(this.host.endpoint, campaignId);
      this.device.keepDraftResume(null);
    }
    this.set({
      phase: failure.alreadyApplied ? 'already-applied' : 'form',
      banner: failure.retry === undefined ? this.banner : { code: failure.code, retry: failure.retry },
      errors: failure.errors ?? this.errors,
    });
    this.host.dispatchEvent(new JobboardApplyErrorEvent(campaignId, failure.code));
    if (failure.alreadyApplied) {
      this.set({ announcement: problemMessage(failure.code) });
      await this.focus('#outcome');
    } else {
      // Said as well as shown: the live region still held the upload's progress.
      const title = this.banner
        ? problemMessage(this.banner.code)
        : msg('The form has problems. Correct them and send it again.');
      this.set({ announcement: [title, ...Object.values(this.errors)].join(' ') });
      await this.showSummary();
    }
  }

  private async showSummary(): Promise<void> {
    // The kept details' fields unfold: an error may be on one of them.
    this.set({ summary: Object.keys(this.errors), editing: true });
    await this.focus('#error-summary');
  }

  private async focus(selector: string): Promise<void> {
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }
}

/** The receipt link, absolute: a root-relative one is on the proxy's origin, not the board page's. Only http(s). */
export function receiptLink(link: string | undefined, endpoint: string): string | null {
  if (!link) return null;
  try {
    const resolved = new URL(link, new URL(endpoint, location.href));
    return /^https?:$/.test(resolved.protocol) ? resolved.href : null;
  } catch {
    return null;
  }
}
