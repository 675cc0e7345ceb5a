// Sending pre-serialised JSON (or another text: the feed, the sitemap) with
// ETag and Cache-Control, answering 304 when the browser (or a CDN) already
// holds these bytes. Answers are built once and cached by their producers, so
// the compressed forms are too: each is computed the first time a client asks
// for it.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

export interface JsonAnswer<T = unknown> {
  /** What was serialised, for a producer that needs it again (the server rendering). */
  value: T;
  /** The JSON as UTF-8 bytes: encoded once, not at every send. */
  body: Buffer;
  etag: string;
  /** The Last-Modified header (an HTTP date), for an answer that has one: If-Modified-Since is then answered too. */
  lastModified?: string;
  /** Compressed forms, filled on first use. */
  encoded?: { br?: Buffer; gzip?: Buffer };
}

/** Below this, compression saves less than it costs. */
const COMPRESS_FROM_BYTES = 1024;

const etagOf = (body: Buffer) => `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

export function jsonAnswer<T>(value: T): JsonAnswer<T> {
  const body = Buffer.from(JSON.stringify(value));
  return { value, body, etag: etagOf(body) };
}

/** A text that is not JSON (XML), sent as JSON answers are, with its own type. */
export function textAnswer(text: string, lastModified?: Date): JsonAnswer<string> {
  const body = Buffer.from(text);
  return {
    value: text,
    body,
    etag: etagOf(body),
    ...(lastModified === undefined ? {} : { lastModified: lastModified.toUTCString() }),
  };
}

/** True when an If-None-Match header names this ETag (weak comparison, RFC 9110). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

type Encoding = 'br' | 'gzip' | 'identity';

/** The best encoding the client accepts: br, then gzip; q=0 refuses one. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

/** Accept-Encoding values seen, at most: browsers send a handful of distinct ones. */
const MAX_REMEMBERED = 100;
const encodingOf = new Map<string, Encoding>();

/** pickEncoding, parsed once per distinct header value (parsing it was a measurable part of a catalogue answer). */
function rememberedEncoding(acceptEncoding: string | undefined): Encoding {
  if (acceptEncoding === undefined) return 'identity';
  let encoding = encodingOf.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = pickEncoding(acceptEncoding);
    if (encodingOf.size < MAX_REMEMBERED) encodingOf.set(acceptEncoding, encoding);
  }
  return encoding;
}

/** Vary values computed, by the header's value before and the field added. */
const varyValues = new Map<string, Map<string, string>>();

/**
 * res.vary(field), each resulting header value computed once: the fields are
 * the proxy's own, so there are few combinations, and parsing the header for
 * each answer was a measurable part of a catalogue answer's cost.
 */
export function addVary(res: Response, field: string): void {
  const current = res.getHeader('Vary') ?? '';
  const value = typeof current === 'string' ? varyValues.get(current)?.get(field) : undefined;
  if (value !== undefined) {
    res.setHeader('Vary', value);
    return;
  }
  res.vary(field);
  const computed = res.getHeader('Vary');
  if (typeof current !== 'string' || typeof computed !== 'string' || varyValues.size >= MAX_REMEMBERED) return;
  let byField = varyValues.get(current);
  if (byField === undefined) varyValues.set(current, (byField = new Map()));
  byField.set(field, computed);
}

function encode(answer: JsonAnswer, encoding: 'br' | 'gzip'): Buffer {
  answer.encoded ??= {};
  if (encoding === 'br') {
    answer.encoded.br ??= brotliCompressSync(answer.body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: answer.body.length },
    });
    return answer.encoded.br;
  }
  answer.encoded.gzip ??= gzipSync(answer.body, { level: 9 });
  return answer.encoded.gzip;
}

/** True when the request's If-Modified-Since is at or after the answer's Last-Modified, and it sent no If-None-Match (which wins, RFC 9110). */
function unmodifiedSince(req: Request, answer: JsonAnswer): boolean {
  const since = req.headers['if-modified-since'];
  if (answer.lastModified === undefined || since === undefined || req.headers['if-none-match'] !== undefined)
    return false;
  return Date.parse(since) >= Date.parse(answer.lastModified);
}

/** `contentType` is the whole header, charset included. */
export function sendCachedJson(
  req: Request,
  res: Response,
  answer: JsonAnswer,
  cacheControl: string,
  contentType = 'application/json; charset=utf-8',
): void {
  const encoding =
    answer.body.length >= COMPRESS_FROM_BYTES ? rememberedEncoding(req.headers['accept-encoding']) : 'identity';
  // One ETag per representation, as RFC 9110 asks of compressed forms.
  const etag = encoding === 'identity' ? answer.etag : `${answer.etag.slice(0, -1)}-${encoding}"`;
  addVary(res, 'Accept-Encoding');
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', cacheControl);
  if (answer.lastModified !== undefined) res.setHeader('Last-Modified', answer.lastModified);
  if (matchesEtag(req.headers['if-none-match'], etag) || unmodifiedSince(req, answer)) {
    res.status(304).end();
    return;
  }
  // The bytes as they are, with res.end: res.send would look the type up and
  // check freshness again, a measurable part of a catalogue answer's cost.
  // Node sends no body to a HEAD request.
  const body = encoding === 'identity' ? answer.body : encode(answer, encoding);
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
