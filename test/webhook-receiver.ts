// A board's webhook receiver for the tests that follow an application to
// the board: a real HTTP server that verifies each event's Standard Webhooks
// signature (standardwebhooks, as a board would) and keeps the verified ones.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ALERT_EVENT_TYPE, TEST_EVENT_TYPE, WebhookEvent } from '../server/public-api/webhook-events.ts';
import type { AlertEvent, ApplicationEvent } from '../server/public-api/webhook-events.ts';

export const RECEIVER_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

export interface Receiver {
  /** WEBHOOK_URL. */
  url: string;
  /** The verified events, in arrival order, with when each arrived (Date.now()). */
  events: { event: ApplicationEvent; at: number }[];
  /** The verified alert.requested events, in arrival order, with their webhook-id. */
  alerts: { event: AlertEvent; id: string; at: number }[];
  /** Requests refused: a signature that did not verify, or a body that is no contract event. */
  refused: number;
  /** While false, every request is answered 503 (the board's receiver is down) and kept nowhere. */
  up: boolean;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const webhook = new Webhook(RECEIVER_SECRET);
  const state = { events: [] as Receiver['events'], alerts: [] as Receiver['alerts'], refused: 0, up: true };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (!state.up) return void res.writeHead(503).end();
      try {
        const verified = webhook.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
        const event = WebhookEvent.parse(verified);
        const at = Date.now();
        if (event.type === ALERT_EVENT_TYPE) state.alerts.push({ event, id: String(req.headers['webhook-id']), at });
        else if (event.type !== TEST_EVENT_TYPE) state.events.push({ event, at });
        res.writeHead(204).end();
      } catch {
        state.refused += 1;
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/jobboard`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
