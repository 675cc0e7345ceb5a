// A board with `require-trusted-types-for 'script'` in its Content-Security-
// Policy refuses strings where the browser parses HTML or loads script. The
// widget hands it three, through one policy of its own, named
// `jobboard-connector` (the board allows it in `trusted-types`): an offer's
// description, parsed in an inert template whose allowed part alone is copied
// into the page (html.ts), the JSON text of a JobPosting script
// (head-job-posting.ts) and a captcha provider's fixed script URL
// (captcha.ts). The policy stays in this module, so nothing else can use it.
// It is created as the module is evaluated, before a script of the page can
// take its name; where the page refused it, the first use says so once in
// the console and gets null: the offers are shown without their HTML.
import { allowedCopy } from './html-allowlist.ts';

/** The policy's name, which a board lists in its CSP's `trusted-types`. */
export const POLICY_NAME = 'jobboard-connector';

interface Policy {
  createHTML(text: string): string;
  createScript(text: string): string;
  createScriptURL(text: string): string;
}

/** True only while parseInert parses, synchronously: the one use the policy lets raw HTML through for. */
let parsingInert = false;

const rules: Policy = {
  // Raw HTML only into parseInert's inert template; anyone else gets its allowed part, serialised.
  createHTML: (text) => (parsingInert ? text : allowedMarkup(text)),
  createScript: String,
  createScriptURL: String,
};

/** Null when the page refused the policy (a script of the page took the name first, or `trusted-types` does not list it). */
function createPolicy(): Policy | null {
  const factory = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: Policy): Policy } }).trustedTypes;
  // No Trusted Types in this browser: strings are taken as they are, through the same rules.
  if (factory === undefined) return rules;
  try {
    return factory.createPolicy(POLICY_NAME, rules);
  } catch {
    return null;
  }
}

const policy = createPolicy();
let told = false;

/**
 * The widget's policy, or null where the page refused it: then the first
 * call says so in the console (a second copy of widget.js on the page, whose
 * elements are never used, says nothing).
 */
export function trusted(): Policy | null {
  if (policy === null && !told) {
    told = true;
    console.error(
      `jobboard widget: the page refused the Trusted Types policy ${POLICY_NAME} (created first elsewhere, or not in trusted-types), so descriptions are plain text. Allow ${POLICY_NAME} in trusted-types; create no other policy of that name.`,
    );
  }
  return policy;
}

/** `html` parsed in an inert template (nothing in it loads or runs), or null where the page refused the policy. */
export function parseInert(html: string): DocumentFragment | null {
  const allowed = trusted();
  if (allowed === null) return null;
  const template = document.createElement('template');
  parsingInert = true;
  try {
    template.innerHTML = allowed.createHTML(html);
  } finally {
    parsingInert = false;
  }
  return template.content;
}

/** The allowed part of `html`, as markup. */
function allowedMarkup(html: string): string {
  const holder = document.createElement('div');
  holder.appendChild(allowedCopy(parseInert(html)!, document));
  return holder.innerHTML;
}
