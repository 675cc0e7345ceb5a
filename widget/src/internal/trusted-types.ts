// A board with `require-trusted-types-for 'script'` in its Content-Security-
// Policy refuses strings where the browser parses HTML or loads script. The
// widget hands it three, through one policy of its own, named
// `jobboard-connector` (the board allows it in `trusted-types`): an offer's
// description, parsed in an inert template whose allowed part alone is copied
// into the page (html.ts), the JSON text of a JobPosting script
// (head-job-posting.ts) and a captcha provider's fixed script URL
// (captcha.ts). The policy stays in this module, so nothing else can use it.
// It is created on first use, where the browser has Trusted Types.

interface Policy {
  createHTML(text: string): string;
  createScript(text: string): string;
  createScriptURL(text: string): string;
}

let policy: Policy | undefined;

/**
 * The widget's policy; where the browser has no Trusted Types, one that gives
 * strings back as they are. (`String` of a string is that string.)
 */
export function trusted(): Policy {
  return (policy ??=
    (globalThis as { trustedTypes?: { createPolicy(name: string, rules: Policy): Policy } }).trustedTypes?.createPolicy('jobboard-connector', {
      createHTML: String,
      createScript: String,
      createScriptURL: String,
    }) ?? { createHTML: String, createScript: String, createScriptURL: String });
}
