import { css } from 'lit';
import { base } from '../internal/styles.ts';

export const styles = [
  base,
  css`
    form {
      display: grid;
      gap: var(--_space);
      max-width: 40rem;
    }
    fieldset {
      border: 0;
      margin: 0;
      padding: 0;
      min-width: 0;
    }
    fieldset.plain {
      display: grid;
      gap: var(--_space);
    }
    .field {
      display: grid;
      gap: 0.25rem;
    }
    .field input:not([type='checkbox']),
    .field textarea {
      width: 100%;
    }
    legend,
    label {
      font-weight: 600;
    }
    .req,
    .opt {
      font-weight: 400;
      color: var(--_muted);
      font-size: 0.9em;
    }
    .phone-row {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_space);
    }
    .phone-row .code {
      flex: 0 1 7rem;
      display: grid;
    }
    .phone-row .number {
      flex: 1 1 12rem;
      display: grid;
    }
    .check {
      grid-template-columns: auto 1fr;
      align-items: start;
      column-gap: 0.5rem;
    }
    .check input {
      width: 1.5rem;
      height: 1.5rem;
      min-height: 0;
      margin: 0.1rem 0 0;
      accent-color: var(--_primary);
    }
    .check label {
      font-weight: 400;
    }
    .check .field-error {
      grid-column: 1 / -1;
    }
    .help,
    .field-error {
      margin: 0;
      font-size: 0.9em;
    }
    .field-error::before {
      content: '⚠ ';
    }
    [aria-invalid='true'] {
      border-color: var(--_error);
      border-width: 2px;
    }
    /* A file picker in the widget's language: the native input stays (for
       keyboard, screen readers and drops) but is transparent over our button. */
    .file {
      position: relative;
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.5rem 1rem;
      padding: calc(var(--_space) / 2);
      border: 1px dashed var(--_border);
      border-radius: var(--_radius);
    }
    .file-input {
      position: absolute;
      inset: 0;
      width: 100%;
      height: 100%;
      opacity: 0;
      cursor: pointer;
    }
    .file-button {
      display: inline-block;
      padding: calc(var(--_space) / 2) var(--_space);
      border: 2px solid var(--_primary);
      border-radius: var(--_radius);
      color: var(--_primary);
      font-weight: 600;
    }
    .file-input:focus-visible + .file-button {
      outline: 3px solid var(--_focus);
      outline-offset: 2px;
    }
    .file-input[aria-invalid='true'] ~ .file-name {
      color: var(--_error);
    }
    .quick-apply {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.5rem;
    }
    .remember-help {
      margin: calc(var(--_space) / -2) 0 0 2rem;
    }
    .consent-link {
      margin: calc(var(--_space) / -2) 0 0 2rem;
    }
    .summary,
    .outcome {
      border: 2px solid var(--_error);
      border-radius: var(--_radius);
      background: var(--_surface);
      padding: var(--_space);
    }
    .summary-title {
      margin-top: 0;
      font-weight: 600;
    }
    .summary ul {
      margin: 0;
      padding-left: 1.25rem;
    }
    .outcome {
      border-color: var(--_muted);
    }
    .outcome.success {
      border-color: var(--_success);
    }
    .outcome :is(h1, h2, h3, h4, h5, h6) {
      margin-top: 0;
      font-size: 1.25em;
    }
    .uploading {
      display: grid;
      gap: 0.5rem;
      justify-items: start;
    }
    progress {
      width: 100%;
      height: 1rem;
      accent-color: var(--_primary);
    }
    button[type='submit'] {
      justify-self: start;
    }
  `,
];
