// The strict Content-Security-Policy with Trusted Types that the widget's
// guide promises the widget works under, and what a page reports when
// something breaks it. Shared by the tests that serve a board with it.
import type { Page } from 'playwright-core';

/** The policy of the widget's guide for a proxy at `proxy`; `scriptSources` adds to script-src (the pinned tags' import map hash). */
export function strictPolicy(proxy: string, scriptSources: string[] = []): string {
  const scripts = ["'self'", proxy, ...scriptSources].join(' ');
  return `default-src 'self'; script-src ${scripts}; style-src 'self'; connect-src ${proxy}; require-trusted-types-for 'script'; trusted-types lit-html jobboard-connector`;
}

/**
 * Collects, from before the page's first script, every violation the page
 * sees (`securitypolicyviolation` events), every error Chromium writes in the
 * console (where it also reports refusals) and every uncaught error. Call it
 * before `page.goto`.
 */
export async function collectViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (line: string) => violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportViolation(line: string): void }).reportViolation(`${event.violatedDirective}: ${event.blockedURI} ${event.sample}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') violations.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
  return violations;
}
