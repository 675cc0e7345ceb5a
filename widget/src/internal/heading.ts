// Headings at the level the page gives: a widget cannot know whether it sits
// under an h1 or inside an h3 section, so the embedding page (or the catalogue
// around the apply form) says so with `heading-level`.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';

/** The level to use: 1 to 6; anything else (missing, NaN, 9) gives 2. */
export function headingLevel(level: number): number {
  return Number.isInteger(level) && level >= 1 && level <= 6 ? level : 2;
}

/**
 * A native `<hN>`: a tag name cannot be a Lit binding, hence one template per
 * level. With `focusId`, the heading gets that id and can take focus by script.
 */
export function heading(level: number, content: unknown, focusId?: string): TemplateResult {
  const id = focusId ?? nothing;
  const tabindex = focusId ? '-1' : nothing;
  switch (headingLevel(level)) {
    case 1:
      return html`<h1 id=${id} tabindex=${tabindex}>${content}</h1>`;
    case 3:
      return html`<h3 id=${id} tabindex=${tabindex}>${content}</h3>`;
    case 4:
      return html`<h4 id=${id} tabindex=${tabindex}>${content}</h4>`;
    case 5:
      return html`<h5 id=${id} tabindex=${tabindex}>${content}</h5>`;
    case 6:
      return html`<h6 id=${id} tabindex=${tabindex}>${content}</h6>`;
    default:
      return html`<h2 id=${id} tabindex=${tabindex}>${content}</h2>`;
  }
}
