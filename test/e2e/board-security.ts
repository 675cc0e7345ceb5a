// What the tests of a security-minded board share: the strict Content-
// Security-Policy with Trusted Types that the widget's guide promises the
// widget works under, what a page reports when something breaks it, and the
// pinned tags `jobboard-connector widget-tag` prints.
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
    // Typed by hand: the package test that shares this module is checked without the DOM's types.
    type Violation = { violatedDirective: string; blockedURI: string; sample: string };
    const inPage = globalThis as unknown as {
      document: { addEventListener(type: 'securitypolicyviolation', listener: (event: Violation) => void): void };
      reportViolation(line: string): void;
    };
    inPage.document.addEventListener('securitypolicyviolation', (event) => {
      inPage.reportViolation(`${event.violatedDirective}: ${event.blockedURI} ${event.sample}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') violations.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
  return violations;
}

/** The output of widget-tag: the tags to paste (its comment left out), and the import map's CSP source it names. */
export function parseWidgetTag(out: string): { head: string; importMapSource: string } {
  const importMapSource = /'sha256-[A-Za-z0-9+/=]+'/.exec(out)?.[0];
  if (importMapSource === undefined) throw new Error(`widget-tag printed no CSP source:\n${out}`);
  return { head: out.replace(/<!--[\s\S]*?-->/g, '').trim(), importMapSource };
}
