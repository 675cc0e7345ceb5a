/**
 * Defines a custom element unless the tag is already taken: a board may load
 * the script twice (two widgets, a tag manager), and a second
 * `customElements.define` with the same name throws.
 */
export function defineElement(tag: string, ctor: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, ctor);
}
