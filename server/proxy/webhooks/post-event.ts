// One signed POST of an event to WEBHOOK_URL, by the Standard Webhooks rules
// (the standardwebhooks library signs: HMAC-SHA256 of "id.timestamp.body"
// with the whsec_ key, sent as webhook-signature "v1,<base64>"). Used by the
// sender and by `webhooks send-test`.
import { Webhook } from 'standardwebhooks';

/** The longest one POST may take; beyond, it counts as failed and is retried. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** How much of the receiver's answer is kept (for last_error and send-test). */
export const ANSWER_CHARS = 500;

/** How much of the receiver's answer is read, at most (a chunk more): enough for ANSWER_CHARS characters of UTF-8. */
export const ANSWER_BYTES = 4 * ANSWER_CHARS;

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
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/**
 * The start of an answer's body: read up to ANSWER_BYTES, then the rest is
 * cancelled (its connection closed), so a receiver that answers a huge body
 * costs no memory. A body that breaks off, or outlasts the timeout, gives
 * what was read: its status is the answer.
 */
async function excerptOf(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  try {
    while (read < ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      read += value.length;
    }
  } catch {
    // What was read stands.
  } finally {
    reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks)).slice(0, ANSWER_CHARS);
}

export async function postEvent(
  target: PostTarget,
  id: string,
  body: string,
  options: { now?: Date; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<PostResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'jobboard-connector-webhooks',
        ...signedHeaders(target.secret, id, body, options.now ?? new Date()),
      },
      body,
      redirect: 'manual',
      signal: options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]),
    });
    const text = await excerptOf(response);
    return {
      kind: 'answered',
      status: response.status,
      ok: response.status >= 200 && response.status < 300,
      body: text,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs ?? WEBHOOK_TIMEOUT_MS} ms`
        : (cause?.code ?? cause?.message ?? String(error));
    return { kind: 'unreachable', error: why };
  }
}
