// The open offer's schema.org JobPosting, in the document's head where search
// engines read it: one script at a time, taken out with the offer.
import { scriptJson } from '../internal/script-json.ts';

export class HeadJobPosting {
  private script: HTMLScriptElement | null = null;

  /** Moves a JobPosting script (the one the server rendered in the element) into the head. */
  adopt(script: HTMLScriptElement): void {
    document.head.append(script);
    this.script = script;
  }

  /** Puts the JobPosting in the head in place of the one there, or takes it out (null). */
  show(posting: object | null): void {
    this.script?.remove();
    this.script = null;
    if (posting === null) return;
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.textContent = scriptJson(posting);
    this.adopt(script);
  }
}
