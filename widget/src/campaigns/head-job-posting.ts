// The open offer's schema.org JobPosting, in the document's head where search
// engines read it: one script at a time, taken out with the offer.
import { scriptJson } from '../internal/script-json.ts';
import { trusted } from '../internal/trusted-types.ts';

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
    script.textContent = trusted().createScript(scriptJson(posting));
    this.adopt(script);
  }
}
