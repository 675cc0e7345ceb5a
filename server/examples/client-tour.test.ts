// The README's runnable example keeps running: it starts its own sandbox and
// must finish cleanly with the outcomes it prints.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

test('server/examples/client-tour.ts runs against its own sandbox: lists, applies, meets the 409 and the local check', async () => {
  const script = fileURLToPath(new URL('client-tour.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 60_000 });
  assert.match(stdout, /\d+ offers on jobboard_demo/);
  assert.match(stdout, /applicant \d+ created with application \d+/);
  assert.match(stdout, /second time: applicant_exists, existing applicant \d+/);
  assert.match(stdout, /refused before sending: per_page/);
});
