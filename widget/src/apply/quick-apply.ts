// Quick apply as the form shows it: the line of the candidate's kept details
// ("Apply with my details (Ada L., cv.pdf) · Edit · Forget"), the "Remember
// me on this device" box and what it keeps, and the store behind them. A
// module of its own, which the controller loads as the form loads: widget.js
// and the form's module carry none of it.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';

export * from './device-store.ts';

/** What the line and the box read of the form's controller (application-controller.ts). */
export interface QuickApplyForm {
  readonly values: Readonly<Record<string, string>>;
  readonly resume: File | null;
  readonly profile: object | null;
  readonly editing: boolean;
  readonly remember: boolean;
  edit(): void;
  forget(): Promise<void>;
}

/** "Apply with my details (Ada L., cv.pdf) · Edit · Forget". */
export function renderQuickApply(form: QuickApplyForm): TemplateResult | typeof nothing {
  if (!form.profile || form.editing) return nothing;
  const { first_name: first, last_name: last, email } = form.values;
  const name = first || last ? [first, last && `${last[0]}.`].filter(Boolean).join(' ') : email;
  const details = [name, form.resume?.name].filter(Boolean).join(', ');
  return html`<p class="quick-apply" part="quick-apply">
    <span>${msg(str`Apply with my details (${details})`)}</span> ·
    <button type="button" part="button" @click=${form.edit}>${msg('Edit')}</button> ·
    <button type="button" part="button" @click=${form.forget}>${msg('Forget')}</button>
  </p>`;
}

/** "Remember me on this device", what it keeps, and "Forget" (when the quick apply line does not show it already). */
export function renderRemember(form: QuickApplyForm): TemplateResult {
  return html`<div class="field check" part="field">
      <input id="remember" type="checkbox" part="input" .checked=${form.remember} aria-describedby="remember-help" />
      <label for="remember" part="label">${msg('Remember me on this device')}</label>
    </div>
    <p id="remember-help" class="help muted remember-help" part="help">
      ${msg(
        'Your contact details, links and resume, kept in this browser only for 30 days, fill in your next applications. Nothing is sent before you apply.',
      )}
      ${
        form.profile && !form.editing
          ? nothing
          : html`<button type="button" part="button" @click=${form.forget}>${msg('Forget')}</button>`
      }
    </p>`;
}
