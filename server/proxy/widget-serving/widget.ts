// GET /widget.js: the built widget bundle, for a board's script tag, and
// beside it the modules it imports: its apply form's (GET
// /widget-apply-<hash>.js), on every page, and those of its French and
// Spanish texts (GET /widget-fr-<hash>.js), on pages in those languages. Every
// visitor of every board downloads them, so each is compressed once (brotli
// and gzip, redone when the file changes) and served by Accept-Encoding, with
// an ETag per encoding and Cache-Control. widget.js is also served under its
// hash (GET /widget-<hash>.js, widget-pin.ts), cached for good. Any page may
// load them (CORS *, CORP cross-origin): `<script type="module">` makes a CORS
// request.
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { RequestHandler } from 'express';
import { matchesEtag, pickEncoding } from '../http/http-cache.ts';
import { ProblemError } from '../http/problem.ts';
import { widgetPin } from '../http/widget-pin.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export const WIDGET_CACHE_CONTROL = 'public, max-age=300';
/** The modules' names carry a hash of their content: they never change. */
export const WIDGET_CHUNK_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * The name of a module the build writes beside widget.js (vite.config.ts:
 * widget-[name]-[hash].js): a language's texts, the apply form, what the form
 * loads (quick apply, photos of a resume), the saved offers.
 */
const CHUNK_NAME = String.raw`widget-[a-z]+(?:-[a-z]+)*-[A-Za-z0-9_-]{8}\.js`;
export const WIDGET_CHUNK_PATH = new RegExp(`^/${CHUNK_NAME}$`);

/** The modules a widget bundle or module imports (the apply form's, the languages', quick apply's), by file name, as it names them. */
export function widgetModulesOf(source: string): string[] {
  return [...new Set(source.match(new RegExp(String.raw`\b${CHUNK_NAME}\b`, 'g')))].sort();
}

interface Variant {
  body: Buffer;
  etag: string;
}

interface Bundle {
  key: string;
  lastModified: string;
  identity: Variant;
  gzip: Variant;
  br: Variant;
  /** Its name under its hash (widget-pin.ts). */
  pinnedName: string;
}

async function load(file: string, previous: Bundle | undefined): Promise<Bundle> {
  const info = await stat(file);
  if (!info.isFile()) throw Object.assign(new Error(`${file} is not a file`), { code: 'ENOENT' });
  const key = `${info.size}:${info.mtimeMs}`;
  if (previous?.key === key) return previous;
  const body = await readFile(file);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipAsync(body, { level: 9 }),
  ]);
  return {
    key,
    lastModified: info.mtime.toUTCString(),
    identity: { body, etag: `"${hash}"` },
    gzip: { body: gz, etag: `"${hash}-gz"` },
    br: { body: br, etag: `"${hash}-br"` },
    pinnedName: widgetPin(body).name,
  };
}

/** The modules beside widget.js (apply form, languages), served from its folder. */
export function widgetChunkHandler(widgetFile: string): RequestHandler {
  const handlers = new Map<string, RequestHandler>();
  return async (req, res, next) => {
    const name = basename(req.path);
    const handler =
      handlers.get(name) ??
      widgetHandler(join(dirname(widgetFile), name), {
        cacheControl: WIDGET_CHUNK_CACHE_CONTROL,
        metricsRoute: '/widget-:chunk.js',
      });
    // Answers 404 (throws) for a name that is no file: only the ones served are kept, so the map is bounded by the files.
    await handler(req, res, next);
    handlers.set(name, handler);
  };
}

export function widgetHandler(
  file: string,
  options: { cacheControl: string; metricsRoute: string; pinned?: boolean } = {
    cacheControl: WIDGET_CACHE_CONTROL,
    metricsRoute: '/widget.js',
  },
): RequestHandler {
  let bundle: Promise<Bundle> | undefined;
  let last: Bundle | undefined;
  return async (req, res) => {
    res.locals.metricsRoute = options.metricsRoute;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    // One stat per request at most in flight: concurrent requests share the load.
    bundle ??= load(file, last).finally(() => (bundle = undefined));
    try {
      last = await bundle;
    } catch (error) {
      last = undefined;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new ProblemError(
          'not_found',
          'The widget bundle is not built on this server: run "npm run build" and restart the proxy.',
        );
      }
      throw error;
    }
    // Pinned: only the bytes loaded here, under their own hash, so that what is cached for good is what the hash names.
    if (options.pinned === true && basename(req.path) !== last.pinnedName) {
      throw new ProblemError(
        'not_found',
        'This server serves no widget of that hash (only its current build): print the script tag again with "jobboard-connector widget-tag".',
      );
    }
    const encoding = pickEncoding(req.headers['accept-encoding']);
    const variant = last[encoding];
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', options.cacheControl);
    res.setHeader('ETag', variant.etag);
    res.setHeader('Last-Modified', last.lastModified);
    if (matchesEtag(req.headers['if-none-match'], variant.etag)) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', String(variant.body.length));
    res.status(200).end(req.method === 'HEAD' ? undefined : variant.body);
  };
}
