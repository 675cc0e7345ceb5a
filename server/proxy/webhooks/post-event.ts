// One signed POST of an event to WEBHOOK_URL, by the Standard Webhooks rules
// (the standardwebhooks library signs: HMAC-SHA256 of "id.timestamp.body"
// with the whsec_ key, sent as webhook-signature "v1,<base64>"). Used by the
// sender and by `webhooks send-test`.
import { Webhook } from 'standardwebhooks';

/** The longest one POST may take; beyond, it counts as failed and is retried. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** How much of the receiver's answer is kept (for last_error and send-test). */
const ANSWER_CHARS = 500;

export type PostResult =
  | { kind: 'answered'; status: number; ok: boolean; body: string }
  /** No HTTP answer: refused connection, timeout, TLS error… */
  | { kind: 'unreachable'; error: string };

export interface PostTarget {
  url: string;
  secret: string;
}

/** The three headers of one attempt: the same webhook-id every time, the timestamp and signature of this send. */
export function signedHeaders(secret: string, id: string, body: string, at: Date): Record<string, string> {
  const signature = new Webhook(secret).sign(id, at, body);
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

export async function postEvent(target: PostTarget, id: string, body: string, options: { now?: Date; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<PostResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'jobboard-connector-webhooks', ...signedHeaders(target.secret, id, body, options.now ?? new Date()) },
      body,
      redirect: 'manual',
      signal: options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]),
    });
    const text = (await response.text()).slice(0, ANSWER_CHARS);
    return { kind: 'answered', status: response.status, ok: response.status >= 200 && response.status < 300, body: text };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${options.timeoutMs ?? WEBHOOK_TIMEOUT_MS} ms` : (cause?.code ?? cause?.message ?? String(error));
    return { kind: 'unreachable', error: why };
  }
}
