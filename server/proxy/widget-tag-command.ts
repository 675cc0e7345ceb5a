// jobboard-connector widget-tag: what a board pastes to load the widget pinned
// (Subresource Integrity), for the proxy at --endpoint. It asks that proxy for
// the files it serves, so that the tag names the bytes the board will get,
// whichever version of the package runs here.
import { parseArgs } from 'node:util';
import { widgetModulesOf } from './routes/widget.ts';
import { pinnedTag, widgetFileUrl, widgetPin } from './widget-pin.ts';

const USAGE = `Usage: jobboard-connector widget-tag --endpoint URL

Prints the tags that load the widget of the proxy at URL pinned: widget.js
under its hash (GET /widget-<hash>.js, cached for good) with its integrity,
an import map giving the modules it imports (its apply form's, its
languages') theirs (checked by browsers with import map integrity: Chrome
127, Firefox 138, Safari 18 and later), and a preload of the apply form's
module. Paste them in the page's head, in place of the script tag of
/widget.js. A page with a
Content-Security-Policy adds the import map's hash, printed below it, to
script-src.

The proxy serves its current build only: after upgrading it, print the tags
again (the old pinned URL answers 404).

Options:
  --endpoint URL   the proxy's address, as the elements' endpoint attribute
                   (https://jobs-proxy.example, https://board.example/jobs)
  -h, --help       this help`;

async function download(url: string): Promise<Uint8Array> {
  const response = await fetch(url).catch((error: unknown) => {
    throw new Error(`GET ${url} failed (${String(error)}): is the proxy running at that address?`);
  });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: is the widget built and served there (jobboard-connector proxy, npm run build)?`);
  return new Uint8Array(await response.arrayBuffer());
}

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { endpoint: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const endpoint = values.endpoint;
  if (endpoint === undefined || !/^https?:\/\/[^/]/.test(endpoint)) {
    throw new Error(`--endpoint needs the proxy's http(s) address, e.g. --endpoint https://jobs-proxy.example\n\n${USAGE}`);
  }
  const at = (name: string) => widgetFileUrl(endpoint, name);
  const widget = await download(at('widget.js'));
  // The pinned URL must answer the same bytes: a proxy older than pinning would answer 404.
  const pinned = await download(at(widgetPin(widget).name));
  if (Buffer.compare(pinned, widget) !== 0) throw new Error(`${at(widgetPin(widget).name)} answered other bytes than widget.js: run the command again (was the proxy being upgraded?).`);
  const modules: Record<string, Uint8Array> = {};
  for (const name of widgetModulesOf(new TextDecoder().decode(widget))) modules[name] = await download(at(name));
  const tag = pinnedTag(endpoint, widget, modules);
  console.log(tag.html);
  console.log(`<!-- With a Content-Security-Policy, script-src also needs the import map's hash: ${tag.importMapSource} -->`);
}
