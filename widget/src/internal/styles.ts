import { css } from 'lit';

/**
 * Shared look: every colour, the font, radius and spacing come from
 * `--jobboard-*` custom properties so a board can make the widget look native.
 * Defaults meet WCAG AA contrast in light and dark schemes.
 */
export const base = css`
  :host {
    --_primary: var(--jobboard-color-primary, #1d4ed8);
    --_on-primary: var(--jobboard-color-on-primary, #ffffff);
    --_text: var(--jobboard-color-text, #1f2937);
    --_muted: var(--jobboard-color-muted, #4b5563);
    --_bg: var(--jobboard-color-background, #ffffff);
    --_surface: var(--jobboard-color-surface, #f3f4f6);
    --_border: var(--jobboard-color-border, #6b7280);
    --_error: var(--jobboard-color-error, #b91c1c);
    --_success: var(--jobboard-color-success, #166534);
    --_focus: var(--jobboard-color-focus, #1d4ed8);
    --_radius: var(--jobboard-radius, 6px);
    --_space: var(--jobboard-spacing, 1rem);
    display: block;
    color: var(--_text);
    background: var(--_bg);
    font-family: var(--jobboard-font-family, system-ui, sans-serif);
    font-size: var(--jobboard-font-size, 1rem);
    line-height: 1.5;
    overflow-wrap: anywhere;
    /* Inherited text properties start afresh, so a board's (text-align: center on its body) do not reach inside. */
    font-style: normal;
    font-weight: 400;
    font-variant: normal;
    font-stretch: normal;
    letter-spacing: normal;
    word-spacing: normal;
    text-align: start;
    text-indent: 0;
    text-transform: none;
    text-shadow: none;
    white-space: normal;
    word-break: normal;
    hyphens: manual;
    cursor: auto;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_primary: var(--jobboard-color-primary, #93c5fd);
      --_on-primary: var(--jobboard-color-on-primary, #0b1220);
      --_text: var(--jobboard-color-text, #f3f4f6);
      --_muted: var(--jobboard-color-muted, #d1d5db);
      --_bg: var(--jobboard-color-background, #111827);
      --_surface: var(--jobboard-color-surface, #1f2937);
      --_border: var(--jobboard-color-border, #9ca3af);
      --_error: var(--jobboard-color-error, #fca5a5);
      --_success: var(--jobboard-color-success, #86efac);
      --_focus: var(--jobboard-color-focus, #93c5fd);
    }
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  button {
    font: inherit;
    cursor: pointer;
    min-height: 44px;
    padding: calc(var(--_space) / 2) var(--_space);
    border-radius: var(--_radius);
    border: 2px solid var(--_primary);
    background: var(--_bg);
    color: var(--_primary);
  }
  button.primary {
    background: var(--_primary);
    color: var(--_on-primary);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  input,
  select,
  textarea {
    font: inherit;
    color: var(--_text);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) / 2);
    min-height: 44px;
    max-width: 100%;
  }
  a {
    color: var(--_primary);
  }
  .muted {
    color: var(--_muted);
  }
  .error {
    color: var(--_error);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .spinner {
    display: inline-block;
    width: 1em;
    height: 1em;
    border: 2px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    vertical-align: -0.15em;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation: none !important;
      transition: none !important;
    }
  }
`;
