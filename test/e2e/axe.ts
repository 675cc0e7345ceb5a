// axe-core in a page of Chromium: the violations it finds, one line each, by
// rule and element. The page's context must bypass its CSP (axe is a script
// of the test's, which no strict policy allows).
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** `rule at element` for each node axe finds in violation in `page` (the whole document). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}`));
  });
}
