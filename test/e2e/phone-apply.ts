// A candidate applying from a phone, as the phone test and `npm run bench --
// phone` drive it: Chromium at 390 × 844 with touch, in French, on a
// throttled network (Lighthouse's slow 4G: 150 ms round trips, 1.6 Mbit/s
// down, 750 kbit/s up). Every tap on the page is counted; typing is not.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { CampaignList } from '../../server/public-api/schemas.ts';

export const PHONE = {
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
  locale: 'fr-FR',
} as const;

const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };

export interface PhoneCandidate {
  email: string;
  firstName: string;
  lastName: string;
  /** Path of the resume file. */
  resume: string;
}

/** One application: how many taps it took and how long from the offer's page to "received". */
export interface Applied {
  taps: number;
  ms: number;
  /** The quick apply line the form opened with, on a next time. */
  quickApply?: string;
}

/** A page of a phone context on the throttled network, and its tap counter. */
export class Phone {
  taps = 0;
  readonly context: BrowserContext;
  readonly page: Page;
  private constructor(context: BrowserContext, page: Page) {
    this.context = context;
    this.page = page;
  }

  /** `bypassCSP`: for a test that injects a script of its own (axe). */
  static async open(browser: Browser, bypassCSP = false): Promise<Phone> {
    const context = await browser.newContext({ ...PHONE, bypassCSP });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    return new Phone(context, page);
  }

  async tap(target: Locator): Promise<void> {
    await target.tap();
    this.taps += 1;
  }

  /** Choosing a file is a tap on the field (the chooser's own taps are the phone's, not the page's). */
  async choose(input: Locator, path: string): Promise<void> {
    await input.setInputFiles(path);
    this.taps += 1;
  }

  close(): Promise<void> {
    return this.context.close();
  }
}

const apply = (page: Page, selector: string) => page.locator(`jobboard-apply ${selector}`);

/**
 * Opens the offer's page and applies: the first time every field is filled
 * and "remember me" ticked (`firstTime`), the next time only what quick apply
 * leaves (the consent), then Send; resolves once "received" shows.
 */
export async function applyOnPhone(
  phone: Phone,
  offerUrl: string,
  candidate: PhoneCandidate,
  firstTime: boolean,
  /** Called on each screen of the way (a test's audit); its time is counted. */
  onScreen: (page: Page, screen: string) => Promise<void> = async () => {},
): Promise<Applied> {
  const { page } = phone;
  const tapsBefore = phone.taps;
  const started = performance.now();
  await page.goto(offerUrl);
  const toForm = page.locator('jobboard-campaigns .detail-head button');
  await toForm.waitFor();
  await onScreen(page, 'the offer');
  await phone.tap(toForm);
  await apply(page, 'form').waitFor();
  if (firstTime) {
    await apply(page, '#email').fill(candidate.email);
    await apply(page, '#first_name').fill(candidate.firstName);
    await apply(page, '#last_name').fill(candidate.lastName);
    await phone.choose(apply(page, '#resume'), candidate.resume);
    await phone.tap(apply(page, '#remember'));
  }
  const quickApply = firstTime ? undefined : await apply(page, '.quick-apply').innerText();
  await phone.tap(apply(page, '#consent'));
  await onScreen(page, firstTime ? 'the form filled' : 'the form with quick apply');
  await phone.tap(apply(page, '[part="submit-button"]'));
  await apply(page, '#outcome').waitFor({ timeout: 60_000 });
  await onScreen(page, 'received');
  return { taps: phone.taps - tapsBefore, ms: performance.now() - started, quickApply };
}

/** The offers of the demo board: their pages' URLs, the first ones listed. */
export async function offerPages(proxyUrl: string, count: number): Promise<string[]> {
  const answer = await fetch(`${proxyUrl}/api/campaigns?per_page=${count}`);
  const { items } = CampaignList.parse(await answer.json());
  if (items.length < count) throw new Error(`the demo board lists ${items.length} offers, ${count} are needed`);
  return items.map((offer) => `${proxyUrl}/?offer=${offer.id}`);
}
