import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sniffFileType } from './file-type.ts';

const SIGNATURES = [
  Buffer.from('%PDF-1.7\n'),
  Buffer.from('89504e470d0a1a0a', 'hex'),
  Buffer.from('ffd8ffe0', 'hex'),
  Buffer.from('504b0304140006000800', 'hex'), // zip, the container of docx and xlsx
  Buffer.from('d0cf11e0a1b11ae1', 'hex'),
];

describe('sniffFileType', () => {
  it('reads a legacy .doc from its OLE2 signature, whatever follows', async () => {
    assert.deepEqual(await sniffFileType(Buffer.concat([SIGNATURES[4]!, Buffer.alloc(504)])), { type: 'doc', detected: 'doc' });
  });

  it('names what it recognised even when it is no API type, so messages can say what the file is', async () => {
    const elf = Buffer.concat([Buffer.from('7f454c46020101', 'hex'), Buffer.alloc(64)]);
    assert.deepEqual(await sniffFileType(elf), { type: undefined, detected: 'elf' });
    assert.deepEqual(await sniffFileType(Buffer.from('plain text named cv.pdf')), { type: undefined, detected: undefined });
  });

  it('never throws on damaged files that start with a real signature: they are of no known type or of that type', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SIGNATURES), fc.uint8Array({ maxLength: 400 }), async (signature, rest) => {
        const { type } = await sniffFileType(Buffer.concat([signature, rest]));
        assert.ok(type === undefined || ['pdf', 'png', 'jpg', 'doc', 'docx', 'xlsx'].includes(type));
      }),
      { numRuns: 500 },
    );
  });
});
