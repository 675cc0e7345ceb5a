// The one way the Node-side tests wait for something that happens
// asynchronously (a delivery, a log line, a stored file): poll a check until
// it holds, and fail naming what was awaited, so a hang reads as a failure
// rather than a test timeout. Kept out of the package (tsconfig.build.json
// excludes server/**/test/**).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PollOptions {
  /** How long to wait before failing. */
  timeoutMs: number;
  /** What is awaited, for the failure's message. */
  what: string;
  /** The pause between checks (25 ms unless the check is costly). */
  intervalMs?: number;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Resolves with the first truthy result of `check` (so it can hand back what it
 * found); fails after `timeoutMs`. An error thrown by `check` fails at once.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs, what, intervalMs = 25 }: PollOptions,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result as Truthy<T>;
    if (Date.now() >= deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}
