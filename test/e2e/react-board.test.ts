// A board built with React 19 with the React entry as the build writes it
// (widget/dist/react.js, what the front-end package ships; the package test
// runs the same board from the installed package, with React 18 and 19): its
// server renders the page, the browser hydrates it, and the candidate
// applies; the board's onApplicationReceived callback hears it. `npm run
// build` first.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { boardWorldPerSuite, writeResume } from './demo-world.ts';
import { applyOnReactBoard, serverRender, startReactBoard } from './react-board.ts';

const REACT_ENTRY = join(import.meta.dirname, '../../widget/dist/react.js');

describe('a board built with React 19 (@jobboard-connector/widget/react)', () => {
  const world = boardWorldPerSuite('react', (proxyUrl) => startReactBoard(REACT_ENTRY, proxyUrl));
  let pdfPath: string;

  before(async () => {
    pdfPath = await writeResume(world.dir, 'Ana Lopez - data analyst');
  });

  it("renders the element's tag on the server", async () => {
    assert.equal(
      await serverRender(REACT_ENTRY, world.demo.proxy.url),
      '<main><h1>Jobs</h1><jobboard-campaigns></jobboard-campaigns></main>',
    );
  });

  it('hydrates in the browser with its props, takes an application and calls onApplicationReceived, with nothing reported by React', async () => {
    const visit = await applyOnReactBoard(world.browser, world.board.origin, pdfPath, 'ana.lopez@example.org');

    assert.equal(visit.received.length, 1);
    assert.equal(typeof visit.received[0]!.campaignId, 'number');
    assert.match(visit.received[0]!.status, /^(delivered|queued)$/);
    assert.deepEqual(visit.reactErrors, []);
    assert.deepEqual(visit.errors, []);
    // The props reached the element before it started: the list was asked of the proxy, with perPage.
    assert.ok(visit.listed.length > 0);
    assert.deepEqual(
      visit.listed.filter(
        (url) =>
          !url.startsWith(`${world.demo.proxy.url}/api/campaigns?`) ||
          new URL(url).searchParams.get('per_page') !== '5',
      ),
      [],
    );
  });
});
