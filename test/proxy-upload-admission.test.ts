// Who may start sending an application, over real sockets from several
// loopback addresses: no one address holds every upload place, and the queue
// of applications waiting for the service has a ceiling on disk. Each refusal
// comes before the body is read.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as files from '../server/test/files.ts';
import { eventually } from '../server/test/poll.ts';
import { admin } from '../server/test/sandbox-admin.ts';
import { BOARD_ORIGIN, apply, applyWorldPerSuite, startApplyWorld, validFields } from './proxy-apply.test-support.ts';
import { applicationBody, codeOf, openRawUpload, statusOf } from './raw-uploads.test-support.ts';
import type { RawUpload } from './raw-uploads.test-support.ts';

const accepted = (status: number) => status === 201 || status === 202;

/** The answer to an application announcing 5 MB whose body never comes: a refusal must not wait for the body. */
async function answerWithoutBody(proxyUrl: string, localAddress?: string): Promise<string> {
  const upload = await openRawUpload(proxyUrl, {
    contentLength: 5_000_000,
    localAddress,
    headers: { Origin: BOARD_ORIGIN },
  });
  return upload.answer;
}

/** The proxy's upload places, in all, per address and per network; each upload given 15 s. */
function uploadPlaces(places: { all: number; perAddress: number; perNetwork: number }): Record<string, string> {
  return {
    MAX_CONCURRENT_UPLOADS: String(places.all),
    MAX_CONCURRENT_UPLOADS_PER_IP: String(places.perAddress),
    MAX_CONCURRENT_UPLOADS_PER_NETWORK: String(places.perNetwork),
    UPLOAD_TIMEOUT_SECONDS: '15',
  };
}

describe('upload places per address', () => {
  // MAX_CONCURRENT_UPLOADS_PER_IP at its default, 4 (the tests' own default is higher); a network cap
  // as low: addresses reaching the proxy directly are each their own network, 127.0.0.0/24 as any other.
  const world = applyWorldPerSuite({ env: uploadPlaces({ all: 10, perAddress: 4, perNetwork: 4 }) });

  /** A valid application from `localAddress`, of which only the first part is sent. */
  async function slowApplication(localAddress: string) {
    const body = applicationBody(validFields(world().openCampaignIds[0]!), files.pdfOfSize(200_000));
    const upload = await openRawUpload(world().proxyUrl, {
      contentLength: body.length,
      first: body.subarray(0, 120_000),
      localAddress,
      headers: { Origin: BOARD_ORIGIN, Connection: 'close' },
    });
    return { ...upload, finish: () => upload.send(body.subarray(120_000)) };
  }

  it('two addresses of one /24 holding slow uploads up to their cap leave room for a third; a fifth from one address is refused with 503 while its four go on', async () => {
    const uploads = join(world().config.dataDir, 'uploads');
    const held = [];
    for (const address of ['127.0.0.2', '127.0.0.3']) {
      for (let i = 0; i < 4; i += 1) held.push(await slowApplication(address));
    }
    await eventually(() => readdirSync(uploads).length === 8, {
      timeoutMs: 10_000,
      what: 'the 8 slow uploads under way',
    });

    const refused = await answerWithoutBody(world().proxyUrl, '127.0.0.2');
    assert.equal(statusOf(refused), 503);
    assert.equal(codeOf(refused), 'server_busy');
    assert.match(refused, /retry-after: 5/i);
    assert.match(refused, /from your network/);

    const body = applicationBody(validFields(world().openCampaignIds[0]!), files.pdf());
    const third = await openRawUpload(world().proxyUrl, {
      contentLength: body.length,
      first: body,
      localAddress: '127.0.0.4',
      headers: { Origin: BOARD_ORIGIN, Connection: 'close' },
    });
    const thirdStatus = statusOf(await third.answer);
    assert.ok(accepted(thirdStatus), `the third address was answered ${thirdStatus}`);

    for (const upload of held) upload.finish();
    const statuses = await Promise.all(held.map(async (upload) => statusOf(await upload.answer)));
    assert.ok(statuses.every(accepted), `the held uploads were answered ${statuses.join(', ')}`);
  });
});

describe('upload places per address behind a reverse proxy', () => {
  it('counts the address TRUST_PROXY gives, an IPv6 one by its /64', async () => {
    const world = await startApplyWorld({
      env: { TRUST_PROXY: '1', MAX_CONCURRENT_UPLOADS_PER_IP: '1', UPLOAD_TIMEOUT_SECONDS: '15' },
    });
    let held: RawUpload | undefined;
    try {
      const from = (ip: string) => ({ Origin: BOARD_ORIGIN, 'X-Forwarded-For': ip });
      held = await openRawUpload(world.proxyUrl, {
        contentLength: 5_000_000,
        first: Buffer.from('-'.repeat(100)),
        headers: from('2001:db8:1:2::1'),
      });
      await eventually(
        async () => {
          // Another interface identifier of the same /64: refused while the first upload goes on (an empty body: admitted, it is answered 400 at once).
          const probe = await openRawUpload(world.proxyUrl, {
            contentLength: 0,
            headers: from('2001:db8:1:2:ffff::9'),
          });
          return statusOf(await probe.answer) === 503;
        },
        { timeoutMs: 5_000, what: "the first upload holding its /64's place" },
      );
      // Another /64: its own place (its answer, once its body has come, is about the form, not the place).
      const body = applicationBody(validFields(world.openCampaignIds[0]!), files.pdf());
      const other = await openRawUpload(world.proxyUrl, {
        contentLength: body.length,
        first: body,
        headers: { ...from('2001:db8:1:3::1'), Connection: 'close' },
      });
      const otherStatus = statusOf(await other.answer);
      assert.ok(accepted(otherStatus), `another /64 was answered ${otherStatus}`);
    } finally {
      held?.socket.destroy();
      await world.close();
    }
  });
});

describe('upload places per network behind a reverse proxy', () => {
  const world = applyWorldPerSuite({
    env: { TRUST_PROXY: '1', ...uploadPlaces({ all: 20, perAddress: 1, perNetwork: 3 }) },
  });

  const from = (ip: string) => ({ Origin: BOARD_ORIGIN, 'X-Forwarded-For': ip });

  /** Whether a post from `ip` is refused a place now: an empty body, answered 400 at once when admitted. */
  async function refusedAPlace(ip: string): Promise<boolean> {
    const probe = await openRawUpload(world().proxyUrl, {
      contentLength: 0,
      headers: { ...from(ip), Connection: 'close' },
    });
    const raw = await probe.answer;
    return statusOf(raw) === 503 && codeOf(raw) === 'server_busy' && /from your network/.test(raw);
  }

  async function applyFrom(ip: string): Promise<number> {
    const body = applicationBody(validFields(world().openCampaignIds[0]!), files.pdf());
    const upload = await openRawUpload(world().proxyUrl, {
      contentLength: body.length,
      first: body,
      headers: { ...from(ip), Connection: 'close' },
    });
    return statusOf(await upload.answer);
  }

  const networks = [
    {
      name: 'an IPv6 /48, one address in each of three /64s',
      held: ['2001:db8:1:1::1', '2001:db8:1:2::1', '2001:db8:1:3::1'],
      sameNetwork: '2001:db8:1:ff::9',
      other: '2001:db8:2:1::1',
    },
    {
      name: 'an IPv4 /24 given by X-Forwarded-For',
      held: ['198.51.100.1', '198.51.100.2', '198.51.100.3'],
      sameNetwork: '198.51.100.250',
      other: '198.51.101.1',
    },
  ];
  for (const network of networks) {
    it(`holds ${network.name} to MAX_CONCURRENT_UPLOADS_PER_NETWORK, while another network still applies`, async () => {
      const held: RawUpload[] = [];
      try {
        // Each address at its own cap of 1, the three together at their network's.
        for (const ip of network.held)
          held.push(
            await openRawUpload(world().proxyUrl, {
              contentLength: 5_000_000,
              first: Buffer.from('-'.repeat(100)),
              headers: from(ip),
            }),
          );
        await eventually(() => refusedAPlace(network.sameNetwork), {
          timeoutMs: 5_000,
          what: `a fourth address of ${network.name} refused while three hold its places`,
        });
        const status = await applyFrom(network.other);
        assert.ok(accepted(status), `another network was answered ${status}`);
      } finally {
        for (const upload of held) upload.socket.destroy();
      }
      // Its places come back once its uploads have gone.
      await eventually(async () => !(await refusedAPlace(network.sameNetwork)), {
        timeoutMs: 5_000,
        what: `${network.name} given places again`,
      });
    });
  }
});

describe("the queue's ceiling on disk", () => {
  const resume = files.pdfOfSize(100_000);

  it('past MAX_QUEUED_BYTES of resumes waiting for the service, answers 503 storage_full before the body is read, and the queued applications are delivered', async () => {
    const world = await startApplyWorld({ env: { MAX_QUEUED_BYTES: String(2 * resume.length) } });
    try {
      await admin(world.sandbox, 'POST', '/faults', { count: 1_000_000, status: 503 });
      const queued = [];
      for (let i = 0; i < 2; i += 1) {
        const answer = await apply(world.proxyUrl, {
          fields: validFields(world.openCampaignIds[0]!),
          resume: { bytes: resume },
        });
        assert.equal(answer.status, 202, answer.text);
        queued.push(String(answer.body.reference));
      }

      const raw = await answerWithoutBody(world.proxyUrl);
      assert.equal(statusOf(raw), 503);
      assert.equal(codeOf(raw), 'storage_full');
      assert.match(raw, /retry-after: \d+/i);
      assert.match(raw, /nothing is wrong with yours/);

      // Nothing accepted is touched: once the service answers again, both are delivered.
      await admin(world.sandbox, 'POST', '/faults', { count: 0 });
      for (const reference of queued) {
        await eventually(async () => (await world.applications.outbox.get(reference))?.status === 'delivered', {
          timeoutMs: 15_000,
          what: `delivery of ${reference}`,
        });
      }
      // And the queue, empty again, takes new applications (once the proxy has read its new weight).
      await eventually(
        async () =>
          accepted(
            (await apply(world.proxyUrl, { fields: validFields(world.openCampaignIds[0]!), resume: { bytes: resume } }))
              .status,
          ),
        {
          timeoutMs: 10_000,
          intervalMs: 250,
          what: 'an application accepted again',
        },
      );
    } finally {
      await world.close();
    }
  });

  it('below MIN_FREE_DISK_BYTES free on the disk of DATA_DIR, answers 503 storage_full before the body is read', async () => {
    // A floor no disk here reaches: 4 PiB.
    const world = await startApplyWorld({ env: { MIN_FREE_DISK_BYTES: String(2 ** 52) } });
    try {
      const raw = await answerWithoutBody(world.proxyUrl);
      assert.equal(statusOf(raw), 503);
      assert.equal(codeOf(raw), 'storage_full');
      assert.deepEqual(readdirSync(join(world.config.dataDir, 'uploads')), []);
    } finally {
      await world.close();
    }
  });
});
