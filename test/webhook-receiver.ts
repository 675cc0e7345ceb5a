// A board's webhook receiver for the tests that follow an application to
// the board: a real HTTP server that verifies each event's Standard Webhooks
// signature (standardwebhooks, as a board would) and keeps the verified ones.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ApplicationEvent } from '../server/public-api/webhook-events.ts';

export const RECEIVER_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

export interface Receiver {
  /** WEBHOOK_URL. */
  url: string;
  /** The verified events, in arrival order, with when each arrived (Date.now()). */
  events: { event: ApplicationEvent; at: number }[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const webhook = new Webhook(RECEIVER_SECRET);
  const events: Receiver['events'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const verified = webhook.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
        events.push({ event: ApplicationEvent.parse(verified), at: Date.now() });
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/jobboard`,
    events,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
