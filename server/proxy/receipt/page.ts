// The receipt page's HTML: a small static document, no script, its one style
// sheet allowed by its hash (the page's CSP allows nothing else). Everything
// put in it is escaped; what it shows comes from the row's state, never from
// the candidate's data, which the row may no longer hold.
import { createHash } from 'node:crypto';
import type { Locale } from '../../contract/index.ts';
import type { OutboxStatus } from '../storage/index.ts';
import { RECEIPT_TEXTS } from './texts.ts';

/** What the page says: the application's state in three words a candidate understands. */
export type ReceiptView =
  | { kind: 'found'; status: OutboxStatus; statusLabel: string | undefined; applyAgainUrl: string | null }
  | { kind: 'not_found' };

// Dark text on white and a blue link: contrast well over WCAG AA's 4.5:1.
const STYLE =
  'body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff}main{max-width:36rem;margin:2rem auto;padding:0 1rem}h1{font-size:1.5rem}a{color:#0b57d0}.status{font-weight:600}';

/** The page's Content-Security-Policy: nothing but its own style. */
export const RECEIPT_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The state's words: received (in line), sent (delivered), or not delivered (refused, given up). */
function stateOf(status: OutboxStatus): 'received' | 'delivered' | 'notDelivered' {
  if (status === 'delivered') return 'delivered';
  if (status === 'rejected' || status === 'dead') return 'notDelivered';
  return 'received';
}

function body(view: ReceiptView, lang: Locale): { heading: string; content: string } {
  const t = RECEIPT_TEXTS[lang];
  if (view.kind === 'not_found')
    return { heading: t.notFound.heading, content: `<p>${escapeHtml(t.notFound.body)}</p>` };
  const state = stateOf(view.status);
  if (state === 'notDelivered') {
    const again =
      view.applyAgainUrl === null
        ? ''
        : `<p><a href="${escapeHtml(view.applyAgainUrl)}">${escapeHtml(t.notDelivered.applyAgain)}</a></p>`;
    return {
      heading: t.notDelivered.heading,
      content: `<p>${escapeHtml(t.notDelivered.body)}</p><p>${escapeHtml(t.notDelivered.what)}</p>${again}`,
    };
  }
  const label =
    state === 'delivered' && view.statusLabel !== undefined
      ? `<p class="status">${escapeHtml(t.status)} ${escapeHtml(view.statusLabel)}</p>`
      : '';
  return { heading: t[state].heading, content: `<p>${escapeHtml(t[state].body)}</p>${label}` };
}

export function renderReceiptPage(view: ReceiptView, lang: Locale): string {
  const t = RECEIPT_TEXTS[lang];
  const { heading, content } = body(view, lang);
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(`${heading} – ${t.title}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(heading)}</h1>
${content}
</main>
</body>
</html>
`;
}
