import { expect } from '@open-wc/testing';
import { prerenderedState } from './prerendered-state.ts';

function host(script?: string): HTMLElement {
  const el = document.createElement('jobboard-campaigns-state-test');
  if (script !== undefined) el.innerHTML = script;
  return el;
}

const state = { query: {}, list: { items: [], page: 1, per_page: 10, total: 0, last_page: 1 } };

describe('the state a server-rendered catalogue embeds', () => {
  it('is read back from its script', () => {
    const el = host(`<script type="application/json" data-jobboard-state>${JSON.stringify(state)}</script>`);
    expect(prerenderedState(el)).to.deep.equal(state);
  });

  it('is none where the page altered it into something else than the state', () => {
    expect(prerenderedState(host('<script type="application/json" data-jobboard-state>{"list":</script>'))).to.equal(
      undefined,
    );
    expect(prerenderedState(host('<script type="application/json" data-jobboard-state>{"list":{}}</script>'))).to.equal(
      undefined,
    );
  });

  it('is none without a script, and nothing is parsed to find that out (a parse that throws costs the page its stack)', () => {
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
      parsed += 1;
      return parse(...args);
    };
    try {
      expect(prerenderedState(host())).to.equal(undefined);
      expect(prerenderedState(host('<script type="application/json" data-jobboard-state></script>'))).to.equal(
        undefined,
      );
    } finally {
      JSON.parse = parse;
    }
    expect(parsed).to.equal(0);
  });
});
