// POST /jwt: a key pair for a 4-hour token. Needs no token and no scope.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Router } from 'express';
import { TokenRequest } from '../../contract/index.ts';
import { clientByPrivateKey, issueToken } from '../auth.ts';
import type { SandboxContext } from '../context.ts';
import { SandboxError } from '../errors.ts';
import { parseBody } from '../http.ts';
import type { RecordingRouter } from '../route-table.ts';

export function jwtRoutes(ctx: SandboxContext, router: RecordingRouter): Router {
  router.post('/jwt', async (req, res) => {
    const body = parseBody(TokenRequest, req.body, 'POST /jwt');
    const client = clientByPrivateKey(ctx.db, body.private_key);
    if (client === undefined || !sameSecret(client.secret_key, body.secret_key)) {
      throw new SandboxError('invalid_credentials', 'No API client has this private_key and secret_key pair.');
    }
    res.json(await issueToken(client, ctx.clock));
  });
  return router.express;
}

/** Compared in constant time (digests of equal length), so the answer's timing tells nothing of the secret. */
function sameSecret(expected: string, given: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(expected), digest(given));
}
