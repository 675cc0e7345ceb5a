// What a page writes in Chromium's console, gathered by the tests that assert on it.
import type { ConsoleMessage, Page } from 'playwright-core';

/** The text of every console message of `type` the page writes from now on (the array fills as they come). */
export function consoleMessages(page: Page, type: ReturnType<ConsoleMessage['type']>): string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === type) messages.push(message.text());
  });
  return messages;
}
