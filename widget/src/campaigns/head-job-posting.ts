// The open offer's schema.org JobPosting, in the document's head where search
// engines read it, and the page's title, description, canonical URL, Open
// Graph and Twitter tags built from it (public-api/offer-head.ts, the list
// the proxy's GET /embed/campaigns/head writes), so a link shared from the
// page previews the offer: one offer at a time, taken out (the page's own
// values put back) with the offer and when the element leaves the page; none
// with `no-structured-data`.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { getJobPosting } from '../internal/api.ts';
import { scriptJson } from '../internal/script-json.ts';
import { trusted } from '../internal/trusted-types.ts';
import { elementOf, offerHead } from '../../../server/public-api/offer-head.ts';
import type { HeadPosting } from '../../../server/public-api/offer-head.ts';

/** Settles after the next paint: a task after the next frame (in a background tab, once the page is shown). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
}

/** What the head's JobPosting needs of its element. */
export interface PostingHost extends ReactiveControllerHost {
  endpoint: string;
  noStructuredData: boolean;
  readonly isConnected: boolean;
}

export class HeadJobPosting implements ReactiveController {
  private readonly host: PostingHost;
  private script: HTMLScriptElement | null = null;
  /** Counts the changes, so that a JobPosting fetched for an offer since closed is not shown. */
  private changes = 0;
  /** Put the head's tags back as they were before the offer's. */
  private undo: (() => void)[] = [];

  constructor(host: PostingHost) {
    this.host = host;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.show(null);
  }

  /** Moves a JobPosting script (the one the server rendered in the element) into the head. */
  adopt(script: HTMLScriptElement): void {
    if (this.host.noStructuredData) return;
    document.head.append(script);
    this.script = script;
  }

  /**
   * Fetches the offer's JobPosting into the head once the offer is painted:
   * asked for before, it took the network from the offer's own first paint.
   * The offer works without it, so a failure is quiet.
   */
  async load(id: number): Promise<void> {
    if (this.host.noStructuredData) return;
    const changes = this.changes;
    await afterPaint();
    if (changes !== this.changes) return;
    const posting = await getJobPosting(this.host.endpoint, id).catch(() => null);
    // Not for an element that has left the page: nothing would take it out.
    if (posting && changes === this.changes && this.host.isConnected) this.show(posting);
  }

  /** Puts the JobPosting in the head in place of the one there, or takes it out (null). */
  show(posting: object | null): void {
    this.changes += 1;
    this.script?.remove();
    this.script = null;
    for (const undo of this.undo.splice(0)) undo();
    if (posting === null) return;
    // Where the page refused the widget's policy, the script's text would be refused too: the tags go without it.
    const policy = trusted();
    if (policy !== null) {
      const script = document.createElement('script');
      script.type = 'application/ld+json';
      script.textContent = policy.createScript(scriptJson(posting));
      this.adopt(script);
    }
    const { title, tags } = offerHead(posting as HeadPosting);
    const pageTitle = document.title;
    document.title = title;
    this.undo.push(() => (document.title = pageTitle));
    for (const [attribute, name, value] of tags) {
      const [element, valueAttribute] = elementOf(attribute);
      let el = document.head.querySelector(`${element}[${attribute}="${name}"]`);
      const before = el?.getAttribute(valueAttribute);
      el ??= document.head.appendChild(document.createElement(element));
      el.setAttribute(attribute, name);
      el.setAttribute(valueAttribute, value);
      this.undo.push(before == null ? () => el.remove() : () => el.setAttribute(valueAttribute, before));
    }
  }
}
