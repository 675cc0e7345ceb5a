// A board built with React 19 with the React entry as the build writes it
// (dist/npm/react.js, what the package ships; the package test runs the same
// board from the installed package): its server renders the page, the browser
// hydrates it, and the candidate applies; the board's onApplicationReceived
// callback hears it. `npm run build` first.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDemoWorld } from './demo-world.ts';
import type { DemoWorld } from './demo-world.ts';
import { applyOnReactBoard, serverRender, startReactBoard } from './react-board.ts';
import { pdf } from '../../server/test/files.ts';

const REACT_ENTRY = join(import.meta.dirname, '../../dist/npm/react.js');

describe('a board built with React 19 (jobboard-connector/react)', () => {
  let world: DemoWorld;
  let board: { origin: string; server: Server };
  let pdfPath: string;
  let proxy = '';

  before(async () => {
    board = await startReactBoard(REACT_ENTRY, () => proxy);
    world = await startDemoWorld('react', { ALLOWED_ORIGINS: board.origin });
    proxy = world.demo.proxy.url;
    pdfPath = join(world.dir, 'cv.pdf');
    await writeFile(pdfPath, pdf({ text: 'Ana Lopez - data analyst' }));
  });

  after(async () => {
    await world?.close();
    board?.server.close();
  });

  it("renders the element's tag on the server", async () => {
    assert.equal(
      await serverRender(REACT_ENTRY, proxy),
      '<main><h1>Jobs</h1><jobboard-campaigns></jobboard-campaigns></main>',
    );
  });

  it('hydrates in the browser with its props, takes an application and calls onApplicationReceived, with nothing reported by React', async () => {
    const visit = await applyOnReactBoard(world.browser, board.origin, pdfPath, 'ana.lopez@example.org');

    assert.equal(visit.received.length, 1);
    assert.equal(typeof visit.received[0]!.campaignId, 'number');
    assert.match(visit.received[0]!.status, /^(delivered|queued)$/);
    assert.deepEqual(visit.reactErrors, []);
    assert.deepEqual(visit.errors, []);
    // The props reached the element before it started: the list was asked of the proxy, with perPage.
    assert.ok(visit.listed.length > 0);
    assert.deepEqual(
      visit.listed.filter(
        (url) => !url.startsWith(`${proxy}/api/campaigns?`) || new URL(url).searchParams.get('per_page') !== '5',
      ),
      [],
    );
  });
});
