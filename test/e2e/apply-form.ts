// Filling <jobboard-apply> in Chromium as a candidate does: email, names, a
// resume file, the consent, then Send. Each test waits for the outcome it expects.
import type { Page } from 'playwright-core';

export interface Candidate {
  email: string;
  firstName: string;
  lastName: string;
  /** Path of the resume file to attach. */
  resume: string;
}

export async function fillAndSend(page: Page, candidate: Candidate): Promise<void> {
  const form = (selector: string) => page.locator(`jobboard-apply ${selector}`);
  await form('#email').fill(candidate.email);
  await form('#first_name').fill(candidate.firstName);
  await form('#last_name').fill(candidate.lastName);
  await form('#resume').setInputFiles(candidate.resume);
  await form('#consent').check();
  await form('[part="submit-button"]').click();
}
