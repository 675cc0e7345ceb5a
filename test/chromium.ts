import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (CHROME_PATH overrides), headless. No browser is ever
 * downloaded here, and without the background-networking flags Chromium keeps
 * calling hosts this closed network refuses. One definition for every
 * Chromium the tests start: Playwright's here (end-to-end tests, benches)
 * and web-test-runner's (the widget's browser tests).
 */
export const CHROMIUM_LAUNCH_OPTIONS: { executablePath: string; args: string[] } = {
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_LAUNCH_OPTIONS.executablePath, args: [...CHROMIUM_LAUNCH_OPTIONS.args] });
}
