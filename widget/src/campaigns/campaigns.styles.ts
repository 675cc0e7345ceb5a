import { css } from 'lit';
import { base } from '../internal/styles.ts';

export const styles = [
  base,
  css`
    /* Room for the list before it arrives: what follows the element stays where it is. */
    :host {
      min-height: var(--jobboard-min-height, 100vh);
    }
    .skeleton li {
      background: var(--_surface);
      border-radius: var(--_radius);
      height: 7.5rem;
    }
    /* The search form is sized by the element, not the page: a phone, or a narrow column of the board. */
    .search-box {
      container-type: inline-size;
    }
    .search {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_space);
      align-items: end;
    }
    .filter {
      display: grid;
      gap: 0.25rem;
      flex: 1 1 10rem;
      /* Sized by the row, not by the longest option: the facets arrive with the list and must not move it. */
      min-width: 0;
    }
    .filter.grow {
      flex: 3 1 14rem;
    }
    .filter label {
      font-weight: 600;
    }
    .filters {
      display: contents;
    }
    .filters-toggle {
      display: none;
    }
    @container (max-width: 600px) {
      .filters-toggle {
        display: block;
      }
      .filters:not(.open) {
        display: none;
      }
      .filters.open {
        display: grid;
        gap: var(--_space);
        flex: 1 1 100%;
      }
    }
    .filter input,
    .filter select {
      width: 100%;
    }
    #near-status {
      margin: 0;
    }
    .count {
      color: var(--_muted);
      min-height: 1.5em;
    }
    .list,
    .skeleton {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: var(--_space);
    }
    .list[aria-busy='true'] {
      opacity: 0.6;
    }
    .offer {
      background: var(--_surface);
      border-radius: var(--_radius);
      padding: var(--_space);
    }
    .offer > :is(h1, h2, h3, h4, h5, h6),
    #detail-title {
      margin: 0;
    }
    .link {
      border: 0;
      padding: 0;
      min-height: 24px;
      background: none;
      color: var(--_primary);
      text-align: start;
      text-decoration: underline;
      font-weight: 700;
      font-size: 1.1em;
    }
    .company {
      margin: 0.25rem 0;
      font-weight: 600;
    }
    .meta {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem 1.25rem;
      margin: 0;
    }
    .meta div {
      display: flex;
      gap: 0.35rem;
    }
    .meta dt {
      color: var(--_muted);
    }
    .meta dd {
      margin: 0;
    }
    .pagination {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_space);
      align-items: center;
      justify-content: center;
      margin-top: var(--_space);
    }
    .state {
      padding: var(--_space) 0;
    }
    .error-box {
      border: 2px solid var(--_error);
      border-radius: var(--_radius);
      padding: var(--_space);
    }
    .detail {
      display: grid;
      gap: calc(var(--_space) / 2);
      container-type: inline-size;
    }
    /* .save: the saved offers' toggles and button come after the first render, in room kept for them. */
    .detail-head,
    .save {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_space);
      align-items: center;
      justify-content: space-between;
      min-height: 44px;
    }
    /* Shown only while it sticks to the bottom, that is while the form is below the screen. */
    .apply-sticky {
      position: sticky;
      bottom: var(--_space);
      height: 0;
      container-type: scroll-state;
      display: grid;
      justify-items: center;
    }
    .apply-sticky > button {
      visibility: hidden;
      translate: 0 -100%;
    }
    @container (max-width: 600px) {
      @container scroll-state(stuck: bottom) {
        .apply-sticky > button {
          visibility: visible;
        }
      }
    }
    .back {
      justify-self: start;
      margin-bottom: var(--_space);
    }
    .rich {
      max-width: 70ch;
    }
  `,
];
