// The one client of the sandbox's admin surface (/_sandbox/...) for the
// Node-side tests: worlds are built, faults injected and the wire read through
// it. Answers go through the OpenAPI-checking fetch like every other call.
import { fetch } from '../openapi/test/answers.ts';

/** A running sandbox, or anything with its origin. */
export interface SandboxOrigin {
  origin: string;
}

export interface AdminReply<T> {
  status: number;
  body: T;
}

// Tests read admin bodies loosely; each asserts the shape it cares about.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * Calls `method` `/_sandbox${path}` and answers its status and body (JSON, or
 * the text when it is not JSON) whatever the status: for tests of refusals. A
 * GET sends no body; other methods send `body` as JSON ({} when not given).
 */
export async function adminCall<T = Json>(
  sandbox: SandboxOrigin,
  method: string,
  path: string,
  body?: unknown,
): Promise<AdminReply<T>> {
  if (!path.startsWith('/')) throw new Error(`admin path "${path}" must start with /`);
  const sendsBody = method !== 'GET' && method !== 'HEAD';
  const response = await fetch(`${sandbox.origin}/_sandbox${path}`, {
    method,
    ...(sendsBody ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, body: parsed as T };
}

/** Like adminCall, for set-up: fails unless the sandbox answered 2xx, and resolves with the body. */
export async function admin<T = Json>(
  sandbox: SandboxOrigin,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const reply = await adminCall<T>(sandbox, method, path, body);
  if (reply.status < 200 || reply.status >= 300)
    throw new Error(`admin ${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}
