// The open offer's schema.org JobPosting, in the document's head where search
// engines read it: one script at a time, taken out with the offer and when
// the element leaves the page; none with `no-structured-data`.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { getJobPosting } from '../internal/api.ts';
import { scriptJson } from '../internal/script-json.ts';
import { trusted } from '../internal/trusted-types.ts';

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

  /** Fetches the offer's JobPosting into the head; the offer works without it, so a failure is quiet. */
  async load(id: number): Promise<void> {
    if (this.host.noStructuredData) return;
    const changes = this.changes;
    const posting = await getJobPosting(this.host.endpoint, id).catch(() => null);
    // Not for an element that has left the page: nothing would take it out.
    if (posting && changes === this.changes && this.host.isConnected) this.show(posting);
  }

  /** Puts the JobPosting in the head in place of the one there, or takes it out (null). */
  show(posting: object | null): void {
    this.changes += 1;
    this.script?.remove();
    this.script = null;
    if (posting === null) return;
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.textContent = trusted().createScript(scriptJson(posting));
    this.adopt(script);
  }
}
