// The apply form: the error summary, then each field as its rule (required,
// optional, hidden) says, a label, its control(s), help and error tied
// together for screen readers, and the send button or the upload's progress.
// The controller holds the values and errors; this only renders them and
// hands it the candidate's actions.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import { formatCount } from '../internal/format.ts';
import { webUrlOrWarn } from '../internal/web-url.ts';
import type { ApplicationController } from './application-controller.ts';
import type * as Photos from './photos.ts';
import { groups } from './fields.ts';
import type { FormControl } from './fields.ts';
import { colon } from '../internal/localize.ts';
import { problemMessage } from '../internal/messages.ts';
import { label, statement } from './labels.ts';
import { MAX_RESUME_PAGES } from '../../../server/public-api/resume-pages.ts';

/** Input attributes of each kind of one-line text control. */
const inputs: Partial<
  Record<FormControl['kind'], { type: string; pattern?: string; inputmode?: string; wrapper?: string }>
> = {
  email: { type: 'email' },
  text: { type: 'text' },
  'tel-code': { type: 'text', pattern: '\\+[0-9]{1,4}', inputmode: 'tel', wrapper: 'code' },
  tel: { type: 'tel', pattern: '[0-9 .\\-\\(\\)]{4,20}', wrapper: 'number' },
  url: { type: 'url' },
};

function describedBy(form: ApplicationController, id: string, help: boolean): string | typeof nothing {
  const ids = [help ? `${id}-help` : '', form.errors[id] ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : nothing;
}

function renderError(form: ApplicationController, id: string): TemplateResult | typeof nothing {
  const error = form.errors[id];
  return error ? html`<p id="${id}-error" class="field-error error" part="error">${error}</p>` : nothing;
}

function renderMark(required: boolean): TemplateResult {
  return required
    ? html`<span class="req">${msg('(required)')}</span>`
    : html`<span class="opt">${msg('(optional)')}</span>`;
}

function renderLabel(id: string, required: boolean): TemplateResult {
  return html`<label for=${id} part="label">${label(id)} ${renderMark(required)}</label>`;
}

/** One-line text controls: email, names, phone, URL. */
function renderInput(form: ApplicationController, control: FormControl, required: boolean): TemplateResult {
  const { id } = control;
  const kind = inputs[control.kind]!;
  return html`<input
    id=${id}
    name=${id}
    type=${kind.type}
    part="input"
    inputmode=${kind.inputmode ?? nothing}
    autocomplete=${control.autocomplete ?? nothing}
    pattern=${kind.pattern ?? nothing}
    maxlength=${control.maxlength ?? nothing}
    .value=${form.values[id] ?? ''}
    ?required=${required}
    aria-invalid=${form.errors[id] ? 'true' : 'false'}
    aria-describedby=${describedBy(form, id, false)}
  />`;
}

/** Controls that share one rule (the phone's code and number), under one legend. */
function renderGroup(form: ApplicationController, group: FormControl[], required: boolean): TemplateResult {
  return html`<fieldset class="field ${group[0]!.rule}" part="field">
    <legend part="label">${label(group[0]!.rule)} ${renderMark(required)}</legend>
    <div class="${group[0]!.rule}-row">
      ${group.map(
        (control) =>
          html`<div class=${inputs[control.kind]?.wrapper ?? nothing}>
            <label for=${control.id} part="label">${label(control.id)}</label>
            ${renderInput(form, control, required)}
          </div>`,
      )}
    </div>
    ${group.map((control) => renderError(form, control.id))}
  </fieldset>`;
}

/** The photos' module, once a candidate chose photos: loaded then, it weighs nothing on a form without. */
let photos: typeof Photos | undefined;

/**
 * The camera on a phone (a file picker elsewhere): a paper resume's pages,
 * sent in the resume's place. Their list and errors are the photos' module's.
 */
function renderPhotos(form: ApplicationController): TemplateResult {
  return html`<div class="file">
      <input
        id="resume_pages"
        type="file"
        part="input"
        class="file-input"
        accept="image/*"
        capture="environment"
        multiple
        aria-describedby=${describedBy(form, 'resume_pages', false)}
        @change=${(e: Event) => {
          // Read now: once the event is dispatched, its target in a shadow root is no longer told.
          const input = e.target as HTMLInputElement;
          void import('./photos.ts').then((m) => (photos = m).choose(form, input, MAX_RESUME_PAGES));
        }}
      />
      <label for="resume_pages" class="file-button" part="button">${msg('Take photos of a paper resume')}</label>
    </div>
    ${photos?.renderPages(form)}`;
}

function renderResume(form: ApplicationController, required: boolean): TemplateResult {
  const { config, resume } = form;
  const types = config!.resume.types;
  const limit = form.resumeLimit();
  return html`<div class="field" part="field">
    ${renderLabel('resume', required)}
    <div class="file">
      <input
        id="resume"
        name="resume"
        type="file"
        part="input"
        class="file-input"
        accept=${types.map((t) => `.${t}`).join(',')}
        ?required=${required}
        aria-invalid=${form.errors.resume ? 'true' : 'false'}
        aria-describedby=${describedBy(form, 'resume', true)}
      />
      <span class="file-button" part="button" aria-hidden="true">${msg('Choose a file')}</span>
      <span class="file-name" aria-hidden="true">${resume?.name ?? msg('No file chosen')}</span>
    </div>
    <p id="resume-help" class="help muted" part="help">
      ${msg(str`${types.map((t) => t.toUpperCase()).join(', ')}, up to ${limit}.`)}
    </p>
    ${renderError(form, 'resume')} ${renderPhotos(form)}
  </div>`;
}

function renderTextarea(
  form: ApplicationController,
  control: FormControl,
  required: boolean,
  tag: string,
): TemplateResult {
  const { id, maxlength } = control;
  return html`<div class="field" part="field">
    ${renderLabel(id, required)}
    <textarea
      id=${id}
      name=${id}
      part="input"
      rows="6"
      maxlength=${maxlength ?? nothing}
      .value=${form.values[id] ?? ''}
      ?required=${required}
      aria-invalid=${form.errors[id] ? 'true' : 'false'}
      aria-describedby=${describedBy(form, id, maxlength !== undefined)}
    ></textarea>
    ${
      maxlength === undefined
        ? nothing
        : html`<p id="${id}-help" class="help muted" part="help">
            ${msg(str`Up to ${formatCount(tag, maxlength)} characters.`)}
          </p>`
    }
    ${renderError(form, id)}
  </div>`;
}

/** The privacy policy's link: the consent-url attribute, else the proxy's consent_url; one that is not http(s) is not linked. */
function consentHref(form: ApplicationController, consentUrl: string): string | undefined {
  const fromProxy = form.config?.consent_url;
  return (
    (consentUrl && webUrlOrWarn(consentUrl, 'consent-url')) ||
    (fromProxy ? webUrlOrWarn(fromProxy, "CONSENT_URL (the proxy's consent_url)") : undefined)
  );
}

function renderCheckbox(
  form: ApplicationController,
  id: string,
  required: boolean,
  consentUrl: string,
): TemplateResult {
  // The consent says it is required; the opt-ins are optional by nature.
  // Apart from the statement by a space of the label's own: the templates' minifier drops one leading a template.
  const suffix = id === 'consent' && required ? renderMark(true) : nothing;
  const href = id === 'consent' ? consentHref(form, consentUrl) : undefined;
  return html`<div class="field check" part="field">
      <input
        id=${id}
        name=${id}
        type="checkbox"
        part="input"
        value="true"
        ?required=${required}
        aria-invalid=${form.errors[id] ? 'true' : 'false'}
        aria-describedby=${describedBy(form, id, false)}
      />
      <label for=${id} part="label">${statement(id)} ${suffix}</label>
      ${renderError(form, id)}
    </div>
    ${
      href
        ? html`<p class="help consent-link">
            <a href=${href} target="_blank" rel="noopener noreferrer"
              >${msg('Read the privacy policy (opens in a new tab)')}</a
            >
          </p>`
        : nothing
    }`;
}

/**
 * Whether a field is folded into the quick apply line: the candidate's kept
 * details fill the form and they did not ask to edit them; a kept field
 * folds when filled (or optional), the resume once one is chosen.
 */
function folded(form: ApplicationController, group: FormControl[], required: boolean): boolean {
  if (!form.profile || form.editing) return false;
  if (group[0]!.kind === 'file') return !!form.resume;
  return group.every((c) => c.remember && (form.values[c.id] || !required));
}

/** One field of the form: its controls as the rule (required, optional, hidden) says. */
function renderField(
  form: ApplicationController,
  group: FormControl[],
  tag: string,
  consentUrl: string,
): TemplateResult | typeof nothing {
  const control = group[0]!;
  const rule = form.rule(control.rule);
  if (rule === 'hidden') return nothing;
  const required = rule === 'required';
  // Folded fields stay in the form, hidden: their values are sent and checked.
  if (folded(form, group, required))
    return html`<div hidden>${renderControls(form, group, tag, consentUrl, required)}</div>`;
  return renderControls(form, group, tag, consentUrl, required);
}

function renderControls(
  form: ApplicationController,
  group: FormControl[],
  tag: string,
  consentUrl: string,
  required: boolean,
): TemplateResult {
  const control = group[0]!;
  if (group.length > 1) return renderGroup(form, group, required);
  if (control.kind === 'file') return renderResume(form, required);
  if (control.kind === 'textarea') return renderTextarea(form, control, required, tag);
  if (control.kind === 'checkbox') return renderCheckbox(form, control.id, required, consentUrl);
  return html`<div class="field" part="field">
    ${renderLabel(control.id, required)} ${renderInput(form, control, required)} ${renderError(form, control.id)}
  </div>`;
}

function renderSummary(form: ApplicationController): TemplateResult | typeof nothing {
  const { banner, errors } = form;
  const fields = form.summary.filter((id) => errors[id]);
  if (fields.length === 0 && !banner) return nothing;
  return html`<div
    id="error-summary"
    class="summary"
    part="error-summary"
    tabindex="-1"
    aria-labelledby="summary-title"
  >
    <p id="summary-title" class="summary-title">
      ${banner ? problemMessage(banner.code) : msg('The form has problems. Correct them and send it again.')}
    </p>
    ${
      fields.length
        ? html`<ul>
            ${fields.map(
              (id) =>
                html`<li>
                  <a
                    href="#${id}"
                    @click=${(e: Event) => {
                      e.preventDefault();
                      form.control(id)?.focus();
                    }}
                    >${label(id)}${colon()} ${errors[id]}</a
                  >
                </li>`,
            )}
          </ul>`
        : nothing
    }
    ${
      banner?.retry
        ? html`<button type="button" part="button" class="primary" @click=${form.retry}>${msg('Send again')}</button>`
        : nothing
    }
  </div>`;
}

/**
 * The form, or its progress while it uploads. `tag` is the language for Intl; `consentUrl` the element's attribute;
 * `quickApply` false with `no-quick-apply`.
 */
export function renderForm(
  form: ApplicationController,
  tag: string,
  consentUrl: string,
  quickApply: boolean,
): TemplateResult {
  const uploading = form.phase === 'uploading';
  return html`<form
    part="form"
    novalidate
    @submit=${(e: SubmitEvent) => {
      e.preventDefault();
      void form.submit();
    }}
    @input=${form.input}
    @change=${form.input}
    @focusout=${form.leave}
  >
    ${renderSummary(form)} ${form.kit?.renderQuickApply(form)}
    <p class="muted">${msg('Fields marked (required) must be filled in.')}</p>
    <fieldset class="plain" ?disabled=${uploading}>
      <legend class="visually-hidden">${msg('Your application')}</legend>
      ${groups().map((group) => renderField(form, group, tag, consentUrl))}
      <!-- The honeypot: robots reading the HTML fill it; browsers and password managers must not
        (a candidate would be silently dropped), so it is not rendered and marked for each to skip. -->
      <div hidden inert>
        <label for="website">${msg('Leave this field empty')}</label>
        <input
          id="website"
          name="website"
          type="text"
          tabindex="-1"
          autocomplete="off"
          data-1p-ignore
          data-lpignore="true"
          data-bwignore
          data-form-type="other"
        />
      </div>
      ${quickApply ? form.kit?.renderRemember(form) : nothing}
      ${form.config?.captcha ? html`<div class="captcha"><slot name="captcha"></slot></div>` : nothing}
    </fieldset>
    ${
      uploading
        ? html`<div class="uploading">
            <label for="progress">${msg(str`Sending your application: ${form.progress}%`)}</label>
            <progress id="progress" part="progress" max="100" .value=${form.progress}></progress>
            <button type="button" part="button" @click=${form.cancel}>${msg('Cancel')}</button>
          </div>`
        : html`<button type="submit" part="submit-button" class="primary">${msg('Send my application')}</button>`
    }
  </form>`;
}
