// jobboard-connector widget-tag: what a board pastes to load the widget pinned
// (Subresource Integrity), for the proxy at --endpoint. It asks that proxy for
// the files it serves, so that the tag names the bytes the board will get,
// whichever version of the package runs here.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { packagePath } from '../../package-root.ts';
import { LOOPBACK_HOSTS } from '../config-values.ts';
import { widgetModulesOf } from '../widget-serving/widget.ts';
import { pinnedTag, widgetFileUrl, widgetPin } from '../http/widget-pin.ts';

const USAGE = `Usage: jobboard-connector widget-tag --endpoint URL

Prints the tags that load the widget of the proxy at URL pinned: widget.js
under its hash (GET /widget-<hash>.js, cached for good) with its integrity,
an import map giving the modules it imports (its apply form's, the
photos' that one imports, its languages') theirs (checked by browsers with
import map integrity: Chrome 127, Firefox 138, Safari 18 and later), and a
preload of the apply form's module. Paste them in the page's head, in place of the script tag of
/widget.js. A page with a
Content-Security-Policy adds the import map's hash, printed below it, to
script-src.

The proxy serves its current build only: after upgrading it, print the tags
again (the old pinned URL answers 404).

The tags pin the bytes the proxy serves today: the endpoint must be https
(http only to this machine: localhost, 127.0.0.1, [::1]), and a widget.js
other than this package's own build is pointed out.

Options:
  --endpoint URL   the proxy's address, as the elements' endpoint attribute
                   (https://jobs-proxy.example, https://board.example/jobs)
  -h, --help       this help`;

async function download(url: string): Promise<Uint8Array> {
  const response = await fetch(url).catch((error: unknown) => {
    throw new Error(`GET ${url} failed (${String(error)}): is the proxy running at that address?`);
  });
  if (!response.ok)
    throw new Error(
      `GET ${url} answered ${response.status}: is the widget built and served there (jobboard-connector proxy, npm run build)?`,
    );
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Refuses an http:// endpoint on another machine: whatever answered over
 * the network today (a proxy on the way, a hijacked name) would be pinned
 * as the widget every visitor runs.
 */
function refuseUnencrypted(endpoint: string): void {
  const url = new URL(endpoint);
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new Error(
      `--endpoint is an http:// address on another machine: the tags would pin whatever that unencrypted connection answers today, and browsers would load it unchecked. ` +
        `Give the proxy's https:// address (http:// is taken only for localhost, 127.0.0.1 or [::1], a proxy on this machine).`,
    );
  }
}

/**
 * Warns (on stderr) when the proxy serves another widget.js than this
 * package's build: the tags pin what is served, which may be an older or
 * changed widget. Quiet where this package has no build to compare with.
 */
async function warnIfNotOwnBuild(served: Uint8Array): Promise<void> {
  const own = await readFile(packagePath('dist', 'widget', 'widget.js')).catch(() => undefined);
  if (own !== undefined && Buffer.compare(own, served) !== 0) {
    console.error(
      `Warning: the proxy serves another widget.js than this package's build (${packagePath('dist', 'widget', 'widget.js')}); the tags below pin the one it serves. ` +
        'If that is not the version you mean to pin, upgrade the proxy (or this package) so both are the same, then run widget-tag again.',
    );
  }
}

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { endpoint: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const endpoint = values.endpoint;
  if (endpoint === undefined || !/^https?:\/\/[^/]/.test(endpoint)) {
    throw new Error(
      `--endpoint needs the proxy's http(s) address, e.g. --endpoint https://jobs-proxy.example\n\n${USAGE}`,
    );
  }
  refuseUnencrypted(endpoint);
  const at = (name: string) => widgetFileUrl(endpoint, name);
  const widget = await download(at('widget.js'));
  await warnIfNotOwnBuild(widget);
  // The pinned URL must answer the same bytes: a proxy older than pinning would answer 404.
  const pinned = await download(at(widgetPin(widget).name));
  if (Buffer.compare(pinned, widget) !== 0)
    throw new Error(
      `${at(widgetPin(widget).name)} answered other bytes than widget.js: run the command again (was the proxy being upgraded?).`,
    );
  // The modules widget.js imports, and those they import in turn (the apply form's quick apply and photos).
  const modules: Record<string, Uint8Array> = {};
  const named = (bytes: Uint8Array) => widgetModulesOf(new TextDecoder().decode(bytes));
  const wanted = named(widget);
  for (let name = wanted.shift(); name !== undefined; name = wanted.shift()) {
    if (modules[name] !== undefined) continue;
    const bytes = await download(at(name));
    modules[name] = bytes;
    wanted.push(...named(bytes));
  }
  const tag = pinnedTag(endpoint, widget, modules);
  console.log(tag.html);
  console.log(
    `<!-- With a Content-Security-Policy, script-src also needs the import map's hash: ${tag.importMapSource} -->`,
  );
}
