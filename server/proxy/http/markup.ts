// Text and attribute values written into HTML and XML the proxy builds by hand
// (the offer's head tags, the sitemap, the Atom feed): the five characters
// that could end a value or open markup become character references, and the
// characters XML 1.0 forbids (controls an offer's text may carry) are dropped,
// so that hostile offer text stays text and the document stays well-formed.
export function escapeMarkup(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the controls are what is removed
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
  );
}
