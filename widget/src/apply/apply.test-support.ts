// What the apply form's browser tests share: the form as the stand-in serves
// it, and the candidate's way of filling and sending it.
import { fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { JobboardApply } from '../index.ts';
import { chooseFile, maybe, pdf, received, shadow, standIn, tick, type, until } from '../internal/test-support.ts';
import type { Lang, LoggedApplication } from '../internal/test-support.ts';
// The texts each language shows are one table for both elements' tests.
export { text } from '../internal/test-support.ts';
export type { Lang } from '../internal/test-support.ts';

/** What the widget writes with console.error while `run` runs. */
export async function consoleErrors(run: () => Promise<void>): Promise<string[]> {
  const written: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => written.push(args.map(String).join(' '));
  try {
    await run();
  } finally {
    console.error = original;
  }
  return written;
}

export async function form(scenario: string, lang: Lang = 'en', extra: Record<string, string> = {}) {
  const { endpoint, token } = standIn(scenario);
  const el = await fixture<JobboardApply>(
    html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang=${lang} no-draft></jobboard-apply>`,
  );
  for (const [name, value] of Object.entries(extra)) el.setAttribute(name, value);
  await until(() => maybe(el, 'form'), 'the form shows once /api/config answered');
  await el.updateComplete;
  return { el, token, endpoint };
}

/** Fills every required field the way a candidate would: keyboard, then the file picker. */
export async function fillRequired(el: JobboardApply, email = 'ada@example.com'): Promise<void> {
  await type(el, '#email', email);
  await type(el, '#first_name', 'Ada');
  await type(el, '#last_name', 'Lovelace');
  chooseFile(el, '#resume', pdf());
  await tick(el, '#consent');
  await el.updateComplete;
}

export async function submit(el: JobboardApply): Promise<void> {
  shadow(el, 'button[type=submit]').focus();
  await sendKeys({ press: 'Enter' });
}

/** Sends the form as the candidate; resolves the application the stand-in received, once the outcome shows. */
export async function sendAndRead(el: JobboardApply, token: string): Promise<LoggedApplication> {
  await submit(el);
  await until(() => maybe(el, '#outcome'));
  const [sent] = await received(token);
  return sent!;
}

/** The form of `scenario`, every required field filled, as the candidate sends it. */
export async function sentForm(scenario: string, lang: Lang = 'en') {
  const opened = await form(scenario, lang);
  await fillRequired(opened.el);
  await submit(opened.el);
  return opened;
}
