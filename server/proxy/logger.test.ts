import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDACTED, redactPersonalData } from './logger.ts';
import { captureLogs } from '../test/logs.ts';
import { eventually } from '../test/poll.ts';

/** The line logged with this message, once written (the logger writes asynchronously); fails when none comes. */
function written(lines: Record<string, unknown>[], msg: string): Promise<Record<string, unknown>> {
  return eventually(() => lines.find((l) => l.msg === msg), {
    timeoutMs: 500,
    what: `a line "${msg}" to be written`,
    intervalMs: 5,
  });
}

describe('proxy logger', () => {
  it('redacts email, names, phone and cover letter at any depth, keeping the reference id', async () => {
    const { logger, text, lines } = captureLogs();
    logger.info(
      {
        reference: 'app_42',
        email: 'ada@example.com',
        delivery: {
          applicant: {
            email: 'ada@example.com',
            first_name: 'Ada',
            last_name: 'Lovelace',
            phone_code: '+44',
            phone_number: '7700900123',
          },
        },
        attempts: [{ application: { cover_letter: 'Dear recruiter' } }],
      },
      'delivered',
    );
    await written(lines, 'delivered');
    assert.doesNotMatch(text(), /ada@example\.com|Ada|Lovelace|7700900123|Dear recruiter/);
    assert.equal(lines[0]?.reference, 'app_42');
    assert.deepEqual((lines[0]?.delivery as { applicant: unknown }).applicant, {
      email: REDACTED,
      first_name: REDACTED,
      last_name: REDACTED,
      phone_code: REDACTED,
      phone_number: REDACTED,
    });
  });

  it('stamps each line with the ISO time it was written at, to the millisecond', async () => {
    const { logger, lines } = captureLogs();
    const before = Date.now();
    logger.info('first');
    await new Promise((resolve) => setTimeout(resolve, 15));
    logger.info('second');
    const after = Date.now();
    const times = [await written(lines, 'first'), await written(lines, 'second')].map((line) => String(line.time));
    for (const time of times) assert.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const [first, second] = times.map((time) => Date.parse(time)) as [number, number];
    assert.ok(
      before <= first && first + 15 <= second && second <= after,
      `times ${times.join(', ')} not between ${before} and ${after}, 15 ms apart`,
    );
  });

  it('drops file contents given as bytes, whatever their key', async () => {
    const { logger, text, lines } = captureLogs();
    logger.info({ upload: { bytes: Buffer.from('%PDF-1.7 secret resume text') } }, 'file');
    assert.deepEqual((await written(lines, 'file')).upload, { bytes: '[redacted bytes]' });
    assert.doesNotMatch(text(), /secret resume text|JVBER/);
  });

  it('redacts the keys and secrets of the upstream client and the Authorization header', async () => {
    const { logger, text, lines } = captureLogs();
    logger.info(
      {
        config: { upstream: { url: 'https://api.example/v2', privateKey: 'pk-1', secretKey: 'sk-1' } },
        req: { headers: { authorization: 'Bearer tok', accept: 'text/html' } },
      },
      'x',
    );
    const line = await written(lines, 'x');
    assert.deepEqual(line.config, {
      upstream: { url: 'https://api.example/v2', privateKey: REDACTED, secretKey: REDACTED },
    });
    assert.deepEqual(line.req, { headers: { authorization: REDACTED, accept: 'text/html' } });
    assert.doesNotMatch(text(), /pk-1|sk-1|Bearer tok/);
  });

  it('redacts child logger bindings too', async () => {
    const { logger, text, lines } = captureLogs();
    logger.child({ email: 'ada@example.com', reference: 'app_7' }).info('bound');
    const line = await written(lines, 'bound');
    assert.equal(line.email, REDACTED);
    assert.equal(line.reference, 'app_7');
    assert.doesNotMatch(text(), /ada@example\.com/);
  });

  it('leaves objects without personal data untouched (same object, no copy)', () => {
    const value = { reference: 'app_1', nested: { status: 201, list: [1, 2] } };
    assert.equal(redactPersonalData(value), value);
  });
});
