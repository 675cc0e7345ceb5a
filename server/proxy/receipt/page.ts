// The receipt page's HTML: a small static document, no script, its one style
// sheet allowed by its hash (the page's CSP allows nothing else). Everything
// put in it is escaped; what it shows comes from the row's state and the
// board's public catalogue (the offer's title and company), never from the
// candidate's data, which the row may no longer hold. It prints as a record
// of the application: black on white, the link's address written out.
import { createHash } from 'node:crypto';
import type { Locale } from '../../contract/index.ts';
import { pageHead } from '../http/page-head.ts';
import type { OutboxStatus } from '../storage/index.ts';
import { RECEIPT_TEXTS } from './texts.ts';

/** The offer applied to, as the board's catalogue holds it. */
export interface ReceiptOffer {
  title: string | null;
  company: string | null;
  /** Its page on the board: null without BOARD_OFFER_URL, or once the board no longer lists it. */
  url: string | null;
  /** False once the board no longer lists it (closed, or archived). */
  listed: boolean;
  /** A spontaneous application: to the company, with no offer (no title, no link). */
  spontaneous?: true;
}

/** What the page says: the application's state in three words a candidate understands, and which application it is. */
export type ReceiptView =
  | {
      kind: 'found';
      status: OutboxStatus;
      statusLabel: string | undefined;
      /** When the proxy received it (ms since the epoch); null when unknown. */
      appliedAt: number | null;
      /** Undefined when the catalogue no longer holds the offer. */
      offer: ReceiptOffer | undefined;
    }
  | { kind: 'not_found' };

// Dark text on white and a blue link: contrast well over WCAG AA's 4.5:1. On
// paper: black on white, nothing but the text, each link's address after it.
const STYLE =
  'body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff}main{max-width:36rem;margin:2rem auto;padding:0 1rem}h1{font-size:1.5rem}a{color:#0b57d0}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}' +
  '@media print{body{color:#000;background:#fff;font-size:12pt}main{max-width:none;margin:0;padding:0}a{color:#000}a[href]::after{content:" (" attr(href) ")";overflow-wrap:anywhere}}';

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

type FoundView = Extract<ReceiptView, { kind: 'found' }>;

/** The date in the page's language, in the proxy's time zone (a candidate is seldom far from the board's). */
function dateOf(ms: number, lang: Locale): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(ms);
}

/** Which application this is: the offer, its company, the date, the status; and a word when the offer is gone. */
function details(view: FoundView, lang: Locale, stateWords: string): string {
  const t = RECEIPT_TEXTS[lang];
  const { offer } = view;
  const rows: [string, string][] = [];
  if (offer?.spontaneous === true) rows.push([t.details.offer, escapeHtml(t.details.spontaneous)]);
  else if (offer?.title != null)
    rows.push([
      t.details.offer,
      offer.url === null
        ? escapeHtml(offer.title)
        : `<a href="${escapeHtml(offer.url)}">${escapeHtml(offer.title)}</a>`,
    ]);
  if (offer?.company != null) rows.push([t.details.company, escapeHtml(offer.company)]);
  if (view.appliedAt !== null) rows.push([t.details.applied, escapeHtml(dateOf(view.appliedAt, lang))]);
  rows.push([t.details.status, escapeHtml(stateWords)]);
  const list = `<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`).join('')}</dl>`;
  return offer?.listed === true ? list : `${list}<p>${escapeHtml(t.details.offerGone)}</p>`;
}

function body(view: ReceiptView, lang: Locale): { heading: string; content: string } {
  const t = RECEIPT_TEXTS[lang];
  if (view.kind === 'not_found')
    return { heading: t.notFound.heading, content: `<p>${escapeHtml(t.notFound.body)}</p>` };
  const state = stateOf(view.status);
  if (state === 'notDelivered') {
    const url = view.offer?.url ?? null;
    const again =
      url === null ? '' : `<p><a href="${escapeHtml(url)}">${escapeHtml(t.notDelivered.applyAgain)}</a></p>`;
    return {
      heading: t.notDelivered.heading,
      content: `<p>${escapeHtml(t.notDelivered.body)}</p><p>${escapeHtml(t.notDelivered.what)}</p>${again}\n${details(view, lang, t.notDelivered.heading)}`,
    };
  }
  // A delivered application's status is the company's, in the board's words, when the board maps it.
  const words = state === 'delivered' && view.statusLabel !== undefined ? view.statusLabel : t[state].heading;
  return { heading: t[state].heading, content: `<p>${escapeHtml(t[state].body)}</p>\n${details(view, lang, words)}` };
}

export function renderReceiptPage(view: ReceiptView, lang: Locale): string {
  const t = RECEIPT_TEXTS[lang];
  const { heading, content } = body(view, lang);
  return `${pageHead(lang, escapeHtml(`${heading} – ${t.title}`), STYLE)}
<body>
<main>
<h1>${escapeHtml(heading)}</h1>
${content}
</main>
</body>
</html>
`;
}
