import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { REDACTED, redactPersonalData } from './logger.ts';
import { capturingLogger } from './test-support.ts';

describe('proxy logger', () => {
  it('redacts email, names, phone and cover letter at any depth, keeping the reference id', async () => {
    const { logger, text, lines } = capturingLogger();
    logger.info(
      {
        reference: 'app_42',
        email: 'ada@example.com',
        delivery: { applicant: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', phone_code: '+44', phone_number: '7700900123' } },
        attempts: [{ application: { cover_letter: 'Dear recruiter' } }],
      },
      'delivered',
    );
    await sleep(5);
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

  it('drops file contents given as bytes, whatever their key', async () => {
    const { logger, text } = capturingLogger();
    logger.info({ upload: { bytes: Buffer.from('%PDF-1.7 secret resume text') } }, 'file');
    await sleep(5);
    assert.doesNotMatch(text(), /secret resume text|JVBER/);
    assert.match(text(), /\[redacted bytes\]/);
  });

  it('redacts the keys and secrets of the upstream client and the Authorization header', async () => {
    const { logger, text } = capturingLogger();
    logger.info({ config: { upstream: { privateKey: 'pk-1', secretKey: 'sk-1' } }, req: { headers: { authorization: 'Bearer tok' } } }, 'x');
    await sleep(5);
    assert.doesNotMatch(text(), /pk-1|sk-1|Bearer tok/);
  });

  it('redacts child logger bindings too', async () => {
    const { logger, text } = capturingLogger();
    logger.child({ email: 'ada@example.com' }).info('bound');
    await sleep(5);
    assert.doesNotMatch(text(), /ada@example\.com/);
  });

  it('leaves objects without personal data untouched (same object, no copy)', () => {
    const value = { reference: 'app_1', nested: { status: 201, list: [1, 2] } };
    assert.equal(redactPersonalData(value), value);
  });
});
