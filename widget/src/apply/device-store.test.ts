// The IndexedDB store of what the apply form keeps on the device, in
// Chromium: the kept details (30 days), each draft's resume (its session,
// a day), and "Forget", checked against the databases the browser lists.
import { expect } from '@open-wc/testing';
import {
  DRAFT_DATABASE,
  PROFILE_DATABASE,
  forgetAll,
  forgetProfile,
  readDraftResume,
  readProfile,
  saveDraftResume,
  saveProfile,
} from './device-store.ts';

const DAY = 86_400_000;

async function databases(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('jobboard-'));
}

const cv = () => new File(['%PDF-1.4 cv'], 'cv.pdf', { type: 'application/pdf' });

describe('what the apply form keeps on the device', () => {
  afterEach(() => forgetAll());

  it('creates no database by reading', async () => {
    expect(await readProfile()).to.equal(null);
    expect(await readDraftResume('/proxy 101', 'tab')).to.equal(null);
    expect(await databases()).to.deep.equal([]);
  });

  it('keeps the details and their resume, read back the same, for 30 days from the last save', async () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    await saveProfile({ email: 'ada@example.com', first_name: 'Ada' }, cv(), now);
    expect(await databases()).to.deep.equal([PROFILE_DATABASE]);
    const kept = await readProfile(now + 30 * DAY);
    expect(kept?.values).to.deep.equal({ email: 'ada@example.com', first_name: 'Ada' });
    expect([kept?.resume?.name, await kept?.resume?.text(), kept?.saved]).to.deep.equal(['cv.pdf', '%PDF-1.4 cv', now]);
  });

  it('erases the details once 30 days passed since the last save, database and all', async () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    await saveProfile({ email: 'ada@example.com' }, null, now);
    await saveProfile({ email: 'ada@example.com' }, null, now + 10 * DAY);
    expect(await readProfile(now + 40 * DAY)).to.not.equal(null);
    expect(await readProfile(now + 40 * DAY + 1)).to.equal(null);
    expect(await databases()).to.deep.equal([]);
  });

  it('forgets the details alone', async () => {
    await saveProfile({ email: 'ada@example.com' }, null);
    await saveDraftResume('/proxy 101', cv(), 'tab');
    await forgetProfile();
    expect(await databases()).to.deep.equal([DRAFT_DATABASE]);
  });

  it("keeps a draft's resume per proxy and offer, read back in its session only, for a day", async () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    await saveDraftResume('/proxy 101', cv(), 'tab', now);
    expect((await readDraftResume('/proxy 101', 'tab', now + DAY))?.name).to.equal('cv.pdf');
    expect(await readDraftResume('/proxy 102', 'tab', now)).to.equal(null);
    expect(await readDraftResume('/other 101', 'tab', now)).to.equal(null);
    await saveDraftResume('/proxy 102', cv(), 'tab', now);
    expect(await readDraftResume('/proxy 102', 'another tab', now)).to.equal(null);
    expect(await readDraftResume('/proxy 102', 'tab', now)).to.equal(null);
    expect(await readDraftResume('/proxy 101', 'tab', now + DAY + 1)).to.equal(null);
    expect(await databases()).to.deep.equal([]);
  });

  it("lets a draft's resume go, and the database with the last one", async () => {
    await saveDraftResume('/proxy 101', cv(), 'tab');
    await saveDraftResume('/proxy 102', cv(), 'tab');
    await saveDraftResume('/proxy 101', null, 'tab');
    expect(await readDraftResume('/proxy 101', 'tab')).to.equal(null);
    expect(await databases()).to.deep.equal([DRAFT_DATABASE]);
    await saveDraftResume('/proxy 102', null, 'tab');
    expect(await databases()).to.deep.equal([]);
  });

  it('Forget leaves nothing in IndexedDB', async () => {
    await saveProfile({ email: 'ada@example.com' }, cv());
    await saveDraftResume('/proxy 101', cv(), 'tab');
    expect((await databases()).sort()).to.deep.equal([DRAFT_DATABASE, PROFILE_DATABASE]);
    await forgetAll();
    expect(await databases()).to.deep.equal([]);
  });
});
