// Sending pre-serialised JSON with ETag and Cache-Control, answering 304
// when the browser (or a CDN) already holds these bytes.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

export interface JsonAnswer {
  body: string;
  etag: string;
}

export function jsonAnswer(value: unknown): JsonAnswer {
  const body = JSON.stringify(value);
  return { body, etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
}

/** True when an If-None-Match header names this ETag (weak comparison, RFC 9110). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

export function sendCachedJson(req: Request, res: Response, answer: JsonAnswer, cacheControl: string): void {
  res.setHeader('ETag', answer.etag);
  res.setHeader('Cache-Control', cacheControl);
  if (matchesEtag(req.headers['if-none-match'], answer.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type('application/json; charset=utf-8').send(answer.body);
}
