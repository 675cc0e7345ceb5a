import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { deflateSync } from 'node:zlib';
import { MAX_INFLATED_BYTES, extractSkills, extractText } from './skills.ts';
import { b64, doc, docx, pdf, png, zip } from '../test/files.ts';
import { suiteWorld } from './test-support.ts';

describe('sandbox skills extraction', () => {
  it('reads the text of a PDF, including deflated streams', () => {
    const stream = deflateSync(Buffer.from('BT (Rust and Kubernetes) Tj ET'));
    const deflated = Buffer.concat([
      Buffer.from('%PDF-1.4\n1 0 obj\n<< /Filter /FlateDecode >>\nstream\n'),
      stream,
      Buffer.from('\nendstream\nendobj\n%%EOF'),
    ]);
    assert.deepEqual(extractSkills(deflated, 'pdf'), ['Kubernetes', 'Rust']);
    assert.deepEqual(extractSkills(pdf({ text: 'C++ and C# and Node.js' }), 'pdf'), ['C#', 'C++', 'Node.js']);
  });

  it('reads the XML of a docx and the raw text of a doc', () => {
    assert.deepEqual(extractSkills(docx('Scrum master, Agile coach'), 'docx'), ['Agile', 'Scrum']);
    assert.deepEqual(extractSkills(doc('Accounting'), 'doc'), ['Accounting']);
  });

  it('joins the strings a PDF splits with kerning numbers, and puts a space for each tag of a docx', () => {
    const pdfText = extractText(
      Buffer.from('%PDF-1.4\n[(Pyt) -20 (hon)] TJ [(Ja)12(va)] TJ (Go) (x)', 'latin1'),
      'pdf',
    );
    assert.equal(pdfText, '%PDF-1.4\n[(Python)] TJ [(Java)] TJ (Gox)');
    const xml = '<w:t>Rust</w:t><w:t>Go</w:t> a <> b <unclosed';
    assert.equal(extractText(zip({ 'word/document.xml': xml }), 'docx'), ' Rust  Go  a <> b <unclosed');
    assert.deepEqual(extractSkills(zip({ 'word/document.xml': '<w:t>Rust</w:t><w:t>Go</w:t>' }), 'docx'), [
      'Go',
      'Rust',
    ]);
  });

  it('finds whole words only, and none in images', () => {
    assert.deepEqual(extractSkills(pdf({ text: 'Javascripting Gopher' }), 'pdf'), []);
    assert.deepEqual(extractSkills(png(), 'png'), []);
  });
});

/**
 * Times extractSkills on each input in a worker thread, so that a quadratic regression fails at the deadline
 * instead of blocking the test run for the minutes (or hours) it would take.
 */
async function timeInWorker(inputs: { bytes: Buffer; type: string }[], deadlineMs: number): Promise<number[]> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.module).then(({ extractSkills }) => {
      parentPort.postMessage(workerData.inputs.map(({ bytes, type }) => {
        const start = performance.now();
        extractSkills(bytes, type);
        return performance.now() - start;
      }));
    });`;
  const worker = new Worker(source, {
    eval: true,
    workerData: { module: new URL('./skills.ts', import.meta.url).href, inputs },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<number[]>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`extractSkills was still running after ${deadlineMs} ms: it is not linear`)),
        deadlineMs,
      );
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}

describe('sandbox skills extraction on hostile files', () => {
  it('takes linear time: 1 MB of ")" and spaces, of "<", or 25,000 nested tags is read within a deadline a quadratic reader misses by minutes', async (t) => {
    const MB = 1_000_000;
    const inputs = [
      { bytes: Buffer.from(`%PDF-1.4\n)${' '.repeat(MB)}`, 'latin1'), type: 'pdf' },
      { bytes: Buffer.from(`%PDF-1.4\n${')'.repeat(MB / 2)}${' '.repeat(MB / 2)}`, 'latin1'), type: 'pdf' },
      { bytes: zip({ 'word/document.xml': '<'.repeat(MB) }), type: 'docx' },
      {
        bytes: zip({ 'word/document.xml': `${'<w:t>'.repeat(25_000)}Python${'</w:t>'.repeat(25_000)}` }),
        type: 'docx',
      },
      { bytes: zip({ 'word/document.xml': `${'<w:t'.repeat(25_000)}${' '.repeat(MB)}` }), type: 'docx' },
      { bytes: doc('C+Node.Jav '.repeat(MB / 10)), type: 'doc' },
    ];
    // A bound, not a timing: each takes a few milliseconds, and the 20 s deadline for all of them is missed by
    // minutes by a quadratic version (the regexes it replaces took about 27 s for 100 KB of spaces, and grow
    // with the square), not by a loaded machine.
    const times = await timeInWorker(inputs, 20_000);
    t.diagnostic(`read in ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  });

  it('inflates at most MAX_INFLATED_BYTES of a docx: a zip bomb part is dropped, the text before it is kept', () => {
    // 32 MiB of text deflate to about 32 KB.
    const bomb = Buffer.alloc(32 * 1024 * 1024, 'Python ');
    const docx = zip({ 'word/document.xml': '<w:t>Rust</w:t>', 'xl/worksheets/sheet1.xml': bomb }, { deflate: true });
    assert.ok(docx.length < 100_000, `the bomb is ${docx.length} bytes`);
    const text = extractText(docx, 'docx');
    assert.ok(text.length <= MAX_INFLATED_BYTES, `${text.length} characters inflated`);
    assert.deepEqual(extractSkills(docx, 'docx'), ['Rust']);
  });

  it('inflates at most MAX_INFLATED_BYTES of a docx in all, however many parts share it', () => {
    const part = Buffer.alloc(6 * 1024 * 1024, 'a');
    const parts = Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`xl/worksheets/sheet${n}.xml`, part]));
    const text = extractText(zip(parts, { deflate: true }), 'xlsx');
    assert.ok(text.length <= MAX_INFLATED_BYTES, `${text.length} characters inflated`);
  });

  it('inflates at most MAX_INFLATED_BYTES of the FlateDecode streams of a PDF', () => {
    const stream = deflateSync(Buffer.alloc(32 * 1024 * 1024, 'a'));
    const oneStream = Buffer.concat([Buffer.from('\nstream\n'), stream, Buffer.from('\nendstream\n')]);
    const bomb = Buffer.concat([Buffer.from('%PDF-1.4\n(Docker) Tj'), oneStream, oneStream, Buffer.from('%%EOF')]);
    const text = extractText(bomb, 'pdf');
    assert.ok(
      text.length <= bomb.length + MAX_INFLATED_BYTES + 10,
      `${text.length} characters for a ${bomb.length}-byte file`,
    );
    assert.deepEqual(extractSkills(bomb, 'pdf'), ['Docker']);
  });
});

describe('sandbox skills option', () => {
  const w = suiteWorld({}, { skills_option: false });

  it('when the company does not have the skills option, no skills are extracted', async () => {
    const applicant = await w.company('/applicants', { body: { applicant: { email: 'noskills@example.com' } } });
    const reply = await w.company('/applications', {
      body: {
        campaign_id: w.campaignId,
        applicant_id: applicant.body.id,
        application: { resume: { base64: b64(pdf({ text: 'Python SQL' })), mime_type: 'pdf' } },
      },
    });
    await w.t.drain();
    const read = await w.company(`/applications/${reply.body.id}?embed=skills`);
    assert.equal(read.body.status, 'complete');
    assert.deepEqual(read.body.skills, []);
  });
});
