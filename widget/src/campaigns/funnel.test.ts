import { expect } from '@open-wc/testing';
import '../widget.ts';
import { loadConfig } from '../internal/api.ts';
import { beaconsSent, shadow, until } from '../internal/test-support.ts';
import { list, open } from './campaigns.test-support.ts';

/** The stand-in's ids of the offers on page `page` of 10. */
const pageIds = (page: number) => Array.from({ length: 10 }, (_, i) => 100 + (page - 1) * 10 + i);

/** Waits until the stand-in has `count` beacons of `token`, then answers them. */
async function beaconsOnceThere(token: string, count: number) {
  await until(async () => (await beaconsSent(token)).length >= count, `${count} beacons arrive`);
  return beaconsSent(token);
}

/** The beacons of `token` once any the proxy's config let the widget send would be there. */
async function beaconsAfterConfig(endpoint: string, token: string) {
  await loadConfig(endpoint).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return beaconsSent(token);
}

describe('<jobboard-campaigns> funnel beacons', () => {
  beforeEach(() => sessionStorage.clear());

  it('counts a page of the list once it is shown: one beacon with each of its offers, as text/plain, with no cookie', async () => {
    const { token } = await list('ok');
    const [sent, ...more] = await beaconsOnceThere(token, 1);
    expect(sent).to.deep.equal({
      contentType: 'text/plain;charset=UTF-8',
      cookie: false,
      beacon: { stage: 'listed', campaign_ids: pageIds(1) },
    });
    expect(more).to.deep.equal([]);
  });

  it('counts each page shown and each offer opened, and not the list again when the candidate comes back to it', async () => {
    const { el, token } = await list('ok');
    await beaconsOnceThere(token, 1);
    shadow(el, '[part=pagination] button:last-of-type').click();
    await beaconsOnceThere(token, 2);
    await open(el, 0);
    await beaconsOnceThere(token, 3);
    shadow(el, 'button.back').click();
    await until(() => el.shadowRoot!.querySelector('[part=list]'), 'the list is back');
    await open(el, 1);
    const sent = await beaconsOnceThere(token, 4);
    expect(sent.map((s) => s.beacon)).to.deep.equal([
      { stage: 'listed', campaign_ids: pageIds(1) },
      { stage: 'listed', campaign_ids: pageIds(2) },
      { stage: 'opened', campaign_ids: [110] },
      { stage: 'opened', campaign_ids: [111] },
    ]);
  });

  it("adds the session's utm_source and utm_campaign when the board tracks campaign parameters, and none when it does not", async () => {
    sessionStorage.setItem(
      'jobboard-utm',
      JSON.stringify({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring' }),
    );
    const tracked = await list('ok');
    const [withUtm] = await beaconsOnceThere(tracked.token, 1);
    expect(withUtm!.beacon).to.deep.equal({
      stage: 'listed',
      campaign_ids: pageIds(1),
      utm_source: 'newsletter',
      utm_campaign: 'spring',
    });
    const untracked = await list('no-utm');
    const [without] = await beaconsOnceThere(untracked.token, 1);
    expect(without!.beacon).to.deep.equal({ stage: 'listed', campaign_ids: pageIds(1) });
  });

  it("sends nothing when the proxy's /api/config says the funnel is off", async () => {
    const counted = async (scenario: string) => {
      // Each from the list: the offer opened before is in the page's URL.
      history.replaceState(null, '', location.pathname);
      const { el, endpoint, token } = await list(scenario);
      await open(el, 0);
      return (await beaconsAfterConfig(endpoint, token)).length;
    };
    expect(await counted('ok')).to.equal(2, 'the same steps with the funnel on');
    expect(await counted('no-funnel')).to.equal(0);
  });
});
