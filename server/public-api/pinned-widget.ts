// The name of the pinned widget: widget.js served under a hash of its bytes
// (GET /widget-<hash>.js), which the proxy routes and the widget recognises
// itself by. No imports, so the browser bundle can take it whole.

/** widget.js under its hash; the names of the modules beside it (widget-fr-<hash>.js, widget-apply-<hash>.js) never match it. */
export const PINNED_WIDGET_PATH = /^\/widget-[0-9a-f]{16}\.js$/;
