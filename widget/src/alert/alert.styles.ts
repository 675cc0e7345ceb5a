import { css } from 'lit';
import { base } from '../internal/styles.ts';

export const styles = [
  base,
  css`
    :host {
      margin-top: var(--_space);
    }
    .panel {
      margin-top: calc(var(--_space) / 2);
      padding: var(--_space);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    h2,
    h3 {
      margin: 0 0 calc(var(--_space) / 2);
      font-size: 1.1em;
    }
    .feed,
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--_space) / 2);
      align-items: center;
    }
    .feed input {
      flex: 1 1 16rem;
    }
    .field {
      display: grid;
      gap: 0.25rem;
    }
    .check {
      grid-template-columns: auto 1fr;
      align-items: start;
    }
    .check input {
      min-height: auto;
      width: 1.25rem;
      height: 1.25rem;
      margin: 0.15rem 0 0;
    }
    .success {
      color: var(--_success);
    }
  `,
];
