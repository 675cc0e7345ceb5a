// The slowest an application may arrive, over real sockets: after the grace,
// a body trickled slower than UPLOAD_MIN_BYTES_PER_SECOND is answered 408
// upload_too_slow long before UPLOAD_TIMEOUT_SECONDS, its connection closed
// and its upload file deleted; a body sent in bursts at the pace is taken.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as files from '../server/test/files.ts';
import { eventually } from '../server/test/poll.ts';
import { BOARD_ORIGIN, startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { applicationBody, codeOf, openRawUpload, statusOf } from './raw-uploads.test-support.ts';

/** 20,000 bytes a second, judged over periods of 1 s after a grace of 1 s. */
const PACE = { bytesPerSecond: 20_000, graceSeconds: 1 };

describe('uploads slower than UPLOAD_MIN_BYTES_PER_SECOND', () => {
  let world: ApplyWorld;

  before(async () => {
    world = await startApplyWorld({
      env: {
        UPLOAD_MIN_BYTES_PER_SECOND: String(PACE.bytesPerSecond),
        UPLOAD_GRACE_SECONDS: String(PACE.graceSeconds),
        // Far beyond this file's timings: a cut seen here is the pace's, not the timeout's.
        UPLOAD_TIMEOUT_SECONDS: '120',
      },
    });
  });
  after(() => world?.close());

  /** Sends `body` after its first `first` bytes, `piece` bytes every `everyMs`, until the proxy closes the connection; answers what it said. */
  async function sendPaced(body: Buffer, first: number, piece: number, everyMs: number): Promise<string> {
    const upload = await openRawUpload(world.proxyUrl, {
      contentLength: body.length,
      first: body.subarray(0, first),
      headers: { Origin: BOARD_ORIGIN, Connection: 'close' },
    });
    let sent = first;
    const timer = setInterval(() => {
      if (sent >= body.length) return;
      upload.send(body.subarray(sent, sent + piece));
      sent += piece;
    }, everyMs);
    try {
      return await upload.answer;
    } finally {
      clearInterval(timer);
    }
  }

  it(
    'answers a trickle 408 upload_too_slow after the grace, closes it, deletes its upload file, counts it and logs its network only',
    { timeout: 30_000 },
    async () => {
      const fields = validFields(world.openCampaignIds[0]!);
      const body = applicationBody(fields, files.pdfOfSize(200_000));
      const started = Date.now();
      // 2,000 bytes a second: a tenth of the pace, far from the body's end.
      const raw = await sendPaced(body, 4_000, 200, 100);
      const seconds = (Date.now() - started) / 1000;

      assert.equal(statusOf(raw), 408, raw.slice(0, 300));
      assert.equal(codeOf(raw), 'upload_too_slow');
      assert.match(raw, /connection: close/i);
      assert.match(raw, /slower than 20 KiB a second/);
      // Judged at the end of the first period after the grace: about 2 s, never the 120 s timeout.
      assert.ok(seconds < 10, `closed after ${seconds} s`);
      await eventually(() => readdirSync(join(world.config.dataDir, 'uploads')).length === 0, {
        timeoutMs: 5_000,
        what: 'the upload file deleted',
      });

      const metrics = await (await fetch(world.metricsUrl)).text();
      assert.match(metrics, /^applications_refused_total\{code="upload_too_slow"\} 1$/m);
      const lines = world.logs.lines.filter((line) => line.event === 'upload_too_slow');
      assert.deepEqual(
        lines.map((line) => line.network),
        ['127.0.0.0/24'],
      );
      // Nothing of the candidate: their fields, their file's name, their address.
      const logged = JSON.stringify(lines);
      for (const value of [
        fields.email,
        fields.last_name,
        fields.phone_number,
        fields.cover_letter,
        'cv.pdf',
        '127.0.0.1',
      ].map(String))
        assert.ok(!logged.includes(value), `the log line holds ${value}`);
    },
  );

  it('takes an application sent in bursts at the pace over several periods', { timeout: 30_000 }, async () => {
    const body = applicationBody(validFields(world.openCampaignIds[0]!), files.pdfOfSize(300_000));
    // 15,000 bytes every 250 ms: 60,000 bytes a second, three times the pace (a busy machine's late timer stays above it), some 5 s in all.
    const raw = await sendPaced(body, 15_000, 15_000, 250);
    const status = statusOf(raw);
    assert.ok(status === 201 || status === 202, `answered ${raw.slice(0, 300)}`);
  });
});
