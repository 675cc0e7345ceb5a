import { chromium, type Browser } from 'playwright-core';

/**
 * The features Playwright's launcher turns off (playwright-core 1.65's list).
 * Chromium keeps only the last `--disable-features` on its command line, so
 * the list below, given after Playwright's, must carry Playwright's too
 * (test/chromium.test.ts checks it still does).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * What the tests' Chromium runs without: Playwright's list, and the address
 * bar's popup as a web page of its own, which every new browser context
 * otherwise loads in another renderer while the page under test loads,
 * slowing the page measured (BENCHMARKS.md, "Figures behind the code").
 * Puppeteer turns it off by default too.
 */
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * The one `--disable-features` to give Chromium: DISABLED_FEATURES, with
 * those of a launcher's `defaults` that come before it (Chromium keeps only
 * the last `--disable-features`).
 */
export function disableFeatures(defaults: readonly string[] = []): string {
  const theirs = defaults
    .filter((arg) => arg.startsWith('--disable-features='))
    .flatMap((arg) => arg.slice('--disable-features='.length).split(','));
  return `--disable-features=${[...new Set([...theirs, ...DISABLED_FEATURES])].join(',')}`;
}

/**
 * Debian's Chromium (CHROME_PATH overrides), headless. No browser is ever
 * downloaded here, and without the background-networking flags Chromium keeps
 * calling hosts this closed network refuses. One definition for every
 * Chromium the tests start: Playwright's here (end-to-end tests, benches),
 * web-test-runner's (the widget's browser tests, whose launcher adds its
 * own features to this `--disable-features`) and Lighthouse's.
 */
export const CHROMIUM_LAUNCH_OPTIONS: { executablePath: string; args: string[] } = {
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--headless=new',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    disableFeatures(),
  ],
};

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_LAUNCH_OPTIONS.executablePath,
    args: [...CHROMIUM_LAUNCH_OPTIONS.args],
  });
}
