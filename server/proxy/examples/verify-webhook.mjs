// Receives the proxy's webhook events on the board's side and checks each
// signature (Standard Webhooks) before trusting anything in it. Run it with
// the proxy's secret, and point the proxy's WEBHOOK_URL at it:
//   npm install standardwebhooks
//   WEBHOOK_SECRET=whsec_... PORT=3000 node verify-webhook.mjs
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';

/**
 * The largest body taken: 1 MiB. An event is a few kilobytes (one carrying
 * the candidate's fields and a 10,000-character cover letter, under 100 KB);
 * anything larger is refused with 413 before it is verified or kept whole.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

function refuse(res, status, why, headers = {}) {
  // Closed after the answer: the rest of a refused body is never read.
  res.writeHead(status, { 'content-type': 'text/plain', connection: 'close', ...headers }).end(why);
}

/**
 * A node:http (or Express) handler: takes POST only (405 otherwise), reads at
 * most MAX_BODY_BYTES (413 beyond, counted as the bytes arrive: a body need
 * not say its length), verifies the signature, then hands the event and its
 * webhook-id to `onEvent`. Answering 2xx tells the proxy the event is
 * delivered; anything else (onEvent threw) makes it send the same event again
 * later, with the same webhook-id: skip ids you have already handled.
 */
export function webhookHandler(secret, onEvent) {
  const webhook = new Webhook(secret);
  return (req, res) => {
    if (req.method !== 'POST') {
      refuse(res, 405, 'use POST', { allow: 'POST' });
      return;
    }
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      refuse(res, 413, 'body too large');
      return;
    }
    const chunks = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk) => {
      if (refused) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        chunks.length = 0;
        refuse(res, 413, 'body too large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', async () => {
      if (refused) return;
      // The raw body, as sent: the signature covers these exact bytes (verify before parsing).
      const body = Buffer.concat(chunks).toString('utf8');
      let event;
      try {
        // Checks webhook-signature (HMAC-SHA256 of "id.timestamp.body") and that webhook-timestamp is within 5 minutes.
        event = webhook.verify(body, req.headers);
      } catch {
        res.writeHead(400).end('invalid signature');
        return;
      }
      try {
        await onEvent(event, req.headers['webhook-id']);
        res.writeHead(204).end();
      } catch {
        res.writeHead(500).end();
      }
    });
  };
}

/**
 * One line about a verified event: its webhook-id and type, then what its
 * `data` holds of the application's `reference`, the company's `status`
 * (application.status_changed) and the `message` (webhook.test), each only
 * when present, e.g. "msg_2x… application.status_changed reference=… status=interview".
 */
function describeEvent(event, id) {
  const data = event.data ?? {};
  const parts = [id, event.type];
  if (data.reference !== undefined) parts.push(`reference=${data.reference}`);
  if (data.status !== undefined) parts.push(`status=${data.status}`);
  if (data.message !== undefined) parts.push(data.message);
  return parts.join(' ');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seen = new Set(); // in production: your database, with a unique index on the webhook-id
  const handler = webhookHandler(process.env.WEBHOOK_SECRET, (event, id) => {
    if (seen.has(id)) return;
    seen.add(id);
    // Here, handle the event: e.g. show the company's new status beside the application (event.data.reference).
    console.log(describeEvent(event, id));
  });
  const server = createServer(handler);
  server.listen(Number(process.env.PORT ?? 3000), () =>
    console.log(`Receiving webhook events on port ${server.address().port}`),
  );
}
