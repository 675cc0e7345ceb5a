import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (CHROME_PATH overrides), headless. No browser is ever
 * downloaded here, and without the background-networking flags Chromium keeps
 * calling hosts this closed network refuses.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
