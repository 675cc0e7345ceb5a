// Who may read the board's funnel: whoever holds DASHBOARD_TOKEN, sent as the
// password of HTTP Basic authentication (any user name: a browser asks for
// both, and the token is the secret) or as a Bearer token (scripts). Anyone
// else gets 401 with a Basic challenge, so that a browser prompts. The token
// is compared in constant time, over hashes of equal length whatever was
// sent. No answer of these routes is ever cached.
import { createHash, timingSafeEqual } from 'node:crypto';
import { parse } from 'basic-auth';
import type { RequestHandler } from 'express';
import { ProblemError } from '../http/problem.ts';

export const DASHBOARD_REALM = 'jobboard-connector dashboard';
export const DASHBOARD_CHALLENGE = `Basic realm="${DASHBOARD_REALM}", charset="UTF-8"`;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The secret an Authorization header carries: a Basic password or a Bearer token; undefined for anything else. */
export function credentialOf(authorization: string | undefined): string | undefined {
  const bearer = /^bearer +(\S+) *$/i.exec(authorization ?? '');
  if (bearer !== null) return bearer[1];
  return parse(authorization ?? '')?.pass;
}

/** Lets through the requests that carry `token`; answers the others 401 with the challenge. Sets no-store on both. */
export function dashboardAuth(token: string): RequestHandler {
  const expected = sha256(token);
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    const given = credentialOf(req.headers.authorization);
    if (given !== undefined && timingSafeEqual(sha256(given), expected)) {
      next();
      return;
    }
    throw new ProblemError(
      'unauthorized',
      "Sign in with the board's dashboard token (DASHBOARD_TOKEN): as the password of HTTP Basic authentication, with any user name, or as Authorization: Bearer <token>.",
      { headers: { 'WWW-Authenticate': DASHBOARD_CHALLENGE } },
    );
  };
}
