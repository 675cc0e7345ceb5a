import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { extractSkills } from './skills.ts';
import { b64, docBytes, docxBytes, pdfBytes, pngBytes, world } from './test-helpers.ts';
import type { World } from './test-helpers.ts';

describe('sandbox skills extraction', () => {
  it('reads the text of a PDF, including deflated streams', () => {
    const stream = deflateSync(Buffer.from('BT (Rust and Kubernetes) Tj ET'));
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Filter /FlateDecode >>\nstream\n'), stream, Buffer.from('\nendstream\nendobj\n%%EOF')]);
    assert.deepEqual(extractSkills(pdf, 'pdf'), ['Kubernetes', 'Rust']);
    assert.deepEqual(extractSkills(pdfBytes('C++ and C# and Node.js'), 'pdf'), ['C#', 'C++', 'Node.js']);
  });

  it('reads the XML of a docx and the raw text of a doc', () => {
    assert.deepEqual(extractSkills(docxBytes('Scrum master, Agile coach'), 'docx'), ['Agile', 'Scrum']);
    assert.deepEqual(extractSkills(docBytes('Accounting'), 'doc'), ['Accounting']);
  });

  it('finds whole words only, and none in images', () => {
    assert.deepEqual(extractSkills(pdfBytes('Javascripting Gopher'), 'pdf'), []);
    assert.deepEqual(extractSkills(pngBytes(), 'png'), []);
  });
});

describe('sandbox skills option', () => {
  let w: World;

  before(async () => {
    w = await world({}, { skills_option: false });
  });
  after(() => w?.t.close());

  it('when the company does not have the skills option, no skills are extracted', async () => {
    const applicant = await w.company('/applicants', { body: { applicant: { email: 'noskills@example.com' } } });
    const reply = await w.company('/applications', {
      body: { campaign_id: w.campaignId, applicant_id: applicant.body.id, application: { resume: { base64: b64(pdfBytes('Python SQL')), mime_type: 'pdf' } } },
    });
    await w.t.drain();
    const read = await w.company(`/applications/${reply.body.id}?embed=skills`);
    assert.equal(read.body.status, 'complete');
    assert.deepEqual(read.body.skills, []);
  });
});
