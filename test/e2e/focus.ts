// Where the focus is on a page, looked up through the shadow roots the
// widget's elements keep it in.
import type { Page } from 'playwright-core';

/** Whether the focused element, looked up through shadow roots, matches the selector. */
export function focusMatches(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el?.matches(sel) ?? false;
  }, selector);
}
