// The language set-up both elements share: the page's runtime locale follows
// the element's language when it connects and when its `lang` changes, and
// `tag` (fr-CA...) is kept for Intl dates and numbers.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { followLocale, resolveLocale, useLocale } from './localize.ts';
import type { Locale } from './localize.ts';

export class LocaleController implements ReactiveController {
  /** Settles once the texts of the element's language are active; the element's updateComplete waits for it. */
  ready: Promise<void> = Promise.resolve();
  locale: Locale = 'en';
  tag = 'en';
  private readonly host: ReactiveControllerHost & HTMLElement;
  private lang: string | null = null;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.host = host;
    host.addController(this);
    followLocale(host);
  }

  /**
   * The element's updateComplete (`updated`, its super.getUpdateComplete) once
   * the texts of its language are loaded and rendered: a change of language
   * loads them, then renders again.
   */
  async settled(updated: () => Promise<boolean>): Promise<boolean> {
    for (;;) {
      const ready = this.ready;
      await ready;
      const result = await updated();
      if (ready === this.ready) return result;
    }
  }

  hostConnected(): void {
    this.lang = this.host.lang;
    this.resolve(true);
  }

  /** Before each render: the language may come from an ancestor, so it is resolved again. */
  hostUpdate(): void {
    const changed = this.host.lang !== this.lang;
    this.lang = this.host.lang;
    this.resolve(changed && this.host.isConnected);
  }

  private resolve(switchLocale: boolean): void {
    const { locale, tag } = resolveLocale(this.host);
    this.locale = locale;
    this.tag = tag;
    if (switchLocale) this.ready = useLocale(locale);
  }
}
