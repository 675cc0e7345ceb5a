import { expect } from '@open-wc/testing';
import '../widget.ts';
import { loadConfig } from '../internal/api.ts';
import { beaconsSent, maybe, type, until } from '../internal/test-support.ts';
import { fillRequired, form, submit } from './apply.test-support.ts';

/** The stages the stand-in received for `token`, with their offers, once `count` of them are there. */
async function stagesOnceThere(token: string, count: number) {
  await until(async () => (await beaconsSent(token)).length >= count, `${count} beacons arrive`);
  return (await beaconsSent(token)).map(({ beacon }) => `${beacon.stage} ${beacon.campaign_ids.join(',')}`);
}

describe('<jobboard-apply> funnel beacons', () => {
  it("counts the form started at the candidate's first input, once however much they type", async () => {
    const { el, endpoint, token } = await form('ok');
    await type(el, '#email', 'ada@example.com');
    await type(el, '#first_name', 'Ada');
    expect(await stagesOnceThere(token, 1)).to.deep.equal(['started 101']);
    await loadConfig(endpoint);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await beaconsSent(token)).length).to.equal(1, 'one beacon for all the typing');
  });

  it('counts each send tried, one the form refuses for its errors too, and the form started again for another offer', async () => {
    const { el, token } = await form('ok');
    await submit(el);
    await until(() => maybe(el, '[part=error-summary]'), 'the form lists what is missing');
    expect(await stagesOnceThere(token, 1)).to.deep.equal(['submitted 101']);
    await fillRequired(el);
    await submit(el);
    await until(() => maybe(el, '#outcome'), 'the application is received');
    expect(await stagesOnceThere(token, 3)).to.deep.equal(['submitted 101', 'started 101', 'submitted 101']);
  });

  it('counts the form started again when it becomes the form of another offer', async () => {
    const { el, token } = await form('lenient');
    await type(el, '#email', 'a');
    await stagesOnceThere(token, 1);
    el.campaignId = 102;
    await el.updateComplete;
    await until(() => maybe(el, 'form #email'), 'the form of the other offer');
    await type(el, '#email', 'b');
    expect(await stagesOnceThere(token, 2)).to.deep.equal(['started 101', 'started 102']);
  });

  it("sends nothing when the proxy's /api/config says the funnel is off", async () => {
    const counted = async (scenario: string) => {
      const { el, endpoint, token } = await form(scenario);
      await fillRequired(el);
      await submit(el);
      await until(() => maybe(el, '#outcome'), 'the application is received');
      await loadConfig(endpoint);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return (await beaconsSent(token)).length;
    };
    expect(await counted('ok')).to.equal(2, 'the same steps with the funnel on');
    expect(await counted('no-funnel')).to.equal(0);
  });
});
