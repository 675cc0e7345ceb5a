// GET /widget.js: the built widget bundle, for a board's script tag. Every
// visitor of every board downloads it, so it is compressed once (brotli and
// gzip, redone when the file changes) and served by Accept-Encoding, with an
// ETag per encoding and Cache-Control. Any page may load it (CORS *, CORP
// cross-origin): `<script type="module">` makes a CORS request.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { RequestHandler } from 'express';
import { matchesEtag, pickEncoding } from '../http-cache.ts';
import { ProblemError } from '../problem.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export const WIDGET_CACHE_CONTROL = 'public, max-age=300';

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
  };
}

export function widgetHandler(file: string): RequestHandler {
  let bundle: Promise<Bundle> | undefined;
  let last: Bundle | undefined;
  return async (req, res) => {
    res.locals.metricsRoute = '/widget.js';
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    // One stat per request at most in flight: concurrent requests share the load.
    bundle ??= load(file, last).finally(() => (bundle = undefined));
    try {
      last = await bundle;
    } catch (error) {
      last = undefined;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new ProblemError('not_found', 'The widget bundle is not built on this server: run "npm run build" and restart the proxy.');
      }
      throw error;
    }
    const encoding = pickEncoding(req.headers['accept-encoding']);
    const variant = last[encoding];
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', WIDGET_CACHE_CONTROL);
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
