// Uploads that end badly cost nothing once they have ended: whether the
// candidate's browser goes away mid-body, UPLOAD_TIMEOUT_SECONDS cuts a slow
// one, or the proxy refuses one mid-body, its upload file is closed and
// deleted. Counted on the proxy's own process (it runs in this one).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as files from '../server/test/files.ts';
import { eventually } from '../server/test/poll.ts';
import { startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import type { ApplyWorld } from './proxy-apply.test-support.ts';
import { BOUNDARY, applicationBody, openRawUpload, statusOf } from './raw-uploads.test-support.ts';
import type { RawUpload } from './raw-uploads.test-support.ts';

const MAX_RESUME_BYTES = 256 * 1024;

/** The process's open file descriptors, with what each points at. */
function openDescriptors(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        // The descriptor readdir itself used, closed by now.
        return '';
      }
    })
    .filter((target) => target !== '');
}

describe('uploads cut off before their end', () => {
  let world: ApplyWorld;
  let uploads: string;

  before(async () => {
    // 5 s, not less: the uploads cut for their size must reach the allowance before the timeout, on a loaded machine too.
    world = await startApplyWorld({
      env: {
        UPLOAD_TIMEOUT_SECONDS: '5',
        MAX_RESUME_BYTES: String(MAX_RESUME_BYTES),
        MAX_CONCURRENT_UPLOADS: '500',
        MAX_CONCURRENT_UPLOADS_PER_IP: '500',
        MAX_CONCURRENT_UPLOADS_PER_NETWORK: '500',
      },
    });
    uploads = join(world.config.dataDir, 'uploads');
  });
  after(() => world?.close());

  const filesBeingWritten = () => readdirSync(uploads).length;

  /** `n` uploads whose resume is partly sent, each once the proxy is writing its upload file. */
  async function uploadsUnderWay(n: number): Promise<RawUpload[]> {
    const body = applicationBody(validFields(world.openCampaignIds[0]!), files.pdfOfSize(200_000));
    const started = await Promise.all(
      Array.from({ length: n }, () =>
        openRawUpload(world.proxyUrl, { contentLength: body.length, first: body.subarray(0, 120_000) }),
      ),
    );
    await eventually(() => filesBeingWritten() >= n, { timeoutMs: 10_000, what: `${n} upload files being written` });
    return started;
  }

  /** `n` whole uploads the proxy refuses once it has read into them. */
  async function refusedWhole(n: number, resume: Buffer): Promise<number[]> {
    const body = applicationBody(validFields(world.openCampaignIds[0]!), resume);
    const sent = await Promise.all(
      Array.from({ length: n }, () =>
        openRawUpload(world.proxyUrl, { contentLength: body.length, first: body, headers: { Connection: 'close' } }),
      ),
    );
    return Promise.all(sent.map((upload) => upload.answer.then(statusOf)));
  }

  /**
   * `n` chunked uploads that keep sending past the form's allowance, until the
   * proxy cuts them: long text fields first, so the cut comes while the
   * resume, still under MAX_RESUME_BYTES, is being written.
   */
  async function cutForSize(n: number): Promise<void> {
    const padding = Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`padding_${i}`, 'a'.repeat(60_000)]));
    const fields = applicationBody({ ...validFields(world.openCampaignIds[0]!), ...padding }, Buffer.alloc(0));
    // Everything up to the resume's bytes (the body minus its closing boundary), then the resume without end.
    const head = fields.subarray(0, fields.length - `\r\n--${BOUNDARY}--\r\n`.length);
    // Small pieces, one at a time: the disk keeps up, so the resume's stream is flowing when the cut comes.
    const pdf = files.pdfOfSize(4 * 1024);
    const chunk = (bytes: Buffer) =>
      Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    await Promise.all(
      Array.from({ length: n }, async () => {
        const upload = await openRawUpload(world.proxyUrl, { headers: { 'Transfer-Encoding': 'chunked' } });
        let open = true;
        void upload.answer.then(() => (open = false));
        upload.send(chunk(Buffer.concat([head, pdf])));
        for (let sent = 0; open && sent < 4 * (MAX_RESUME_BYTES + 1024 * 1024); sent += pdf.length) {
          if (!upload.socket.write(chunk(pdf)))
            await new Promise((resolve) => upload.socket.once('drain', resolve).once('close', resolve));
          await sleep(1);
        }
        assert.equal(statusOf(await upload.answer), 413);
      }),
    );
  }

  it('after 200 uploads aborted, timed out or refused mid-body, holds no more open files than before and DATA_DIR/uploads is empty', async () => {
    const before = openDescriptors();
    const rounds: [string, () => Promise<void>][] = [
      [
        'the client goes away mid-body',
        async () => {
          for (const upload of await uploadsUnderWay(20)) upload.socket.destroy();
        },
      ],
      [
        'UPLOAD_TIMEOUT_SECONDS cuts it',
        async () => {
          await Promise.all((await uploadsUnderWay(20)).map((upload) => upload.answer));
        },
      ],
      [
        'the resume is over MAX_RESUME_BYTES',
        async () => {
          const statuses = await refusedWhole(20, files.pdfOfSize(MAX_RESUME_BYTES + 50_000));
          assert.deepEqual(new Set(statuses), new Set([413]));
        },
      ],
      [
        'the resume is no resume type',
        async () => {
          const statuses = await refusedWhole(20, Buffer.concat([files.exe(), Buffer.alloc(100_000)]));
          assert.deepEqual(new Set(statuses), new Set([415]));
        },
      ],
      ["the body goes on past the form's allowance", () => cutForSize(20)],
    ];
    // 5 kinds, twice over: 200 uploads.
    for (const [, round] of [...rounds, ...rounds]) await round();

    const leftOpen = () => openDescriptors().filter((target) => target.startsWith(uploads));
    await eventually(
      () => leftOpen().length === 0 && filesBeingWritten() === 0 && openDescriptors().length <= before.length,
      {
        timeoutMs: 15_000,
        what: 'every upload file closed and deleted',
      },
    ).catch((error: unknown) => {
      assert.fail(
        `${(error as Error).message}: ${leftOpen().length} upload files open, ${filesBeingWritten()} in ${uploads}, ${openDescriptors().length} descriptors open (${before.length} before)`,
      );
    });
  });
});
