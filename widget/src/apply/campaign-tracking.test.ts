import { expect, fixture, html } from '@open-wc/testing';
import '../widget.ts';
import type { JobboardCampaigns } from '../index.ts';
import { maybe, received, shadow, standIn, until } from '../internal/test-support.ts';
import { fillRequired, form } from './apply.test-support.ts';

/** Where the page was opened: each test lands from it, with its own query. */
const page = location.pathname;

/** Fills the required fields as a candidate would and sends; resolves once the stand-in received it. */
async function applyWith(scenario: string): Promise<Record<string, string>> {
  const { el, token } = await form(scenario);
  await fillRequired(el);
  shadow(el, '[part=submit-button]').click();
  await until(() => maybe(el, '[part=outcome].success'), 'the application is received');
  const [application] = await received(token);
  return application!.fields;
}

function utmOf(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => name.startsWith('utm_')));
}

describe('campaign tracking', () => {
  beforeEach(() => sessionStorage.clear());

  it("keeps the landing URL's utm_* through navigation (the first landing wins) and posts them with the form", async () => {
    // Landing on the catalogue from a campaign link.
    history.replaceState(null, '', `${page}?utm_source=newsletter&utm_campaign=spring%20sale&utm_medium=&ref=x`);
    const { endpoint } = standIn('ok');
    const list = await fixture<JobboardCampaigns>(
      html`<jobboard-campaigns endpoint=${endpoint} lang="en"></jobboard-campaigns>`,
    );
    await list.updateComplete;
    list.remove();
    // Navigating: to a page without them, then to one with others, which do not replace the first landing's.
    history.pushState(null, '', `${page}?offer=101`);
    history.pushState(null, '', `${page}?offer=101&utm_source=later&utm_term=other`);
    const fields = await applyWith('ok');
    expect(utmOf(fields)).to.deep.equal({ utm_source: 'newsletter', utm_campaign: 'spring sale' });
  });

  it('keeps only the values that keep to the rule: none over 200 characters (an emoji counts once), with a line break or a bidi control; the form goes through with the others', async () => {
    const emoji = '\u{1F600}'.repeat(200);
    const query = new URLSearchParams({
      utm_source: 'newsletter',
      utm_medium: emoji,
      utm_campaign: 'x'.repeat(201),
      utm_term: 'line\nbreak',
      utm_content: 'right\u202eleft',
    });
    history.replaceState(null, '', `${page}?${query}`);
    const fields = await applyWith('ok');
    expect(utmOf(fields)).to.deep.equal({ utm_source: 'newsletter', utm_medium: emoji });
    expect(JSON.parse(sessionStorage.getItem('jobboard-utm') ?? 'null')).to.deep.equal({
      utm_source: 'newsletter',
      utm_medium: emoji,
    });
  });

  it('posts only the good values of what the session kept before (an older widget kept any), and nothing but strings', async () => {
    history.replaceState(null, '', `${page}?offer=101`);
    sessionStorage.setItem(
      'jobboard-utm',
      JSON.stringify({
        utm_source: ' mail ',
        utm_term: 'a\u0000b',
        utm_content: 'y'.repeat(201),
        utm_medium: 7,
        utm_campaign: 'spring',
      }),
    );
    expect(utmOf(await applyWith('ok'))).to.deep.equal({ utm_source: 'mail', utm_campaign: 'spring' });
  });

  it('posts none from a session entry that is not an object of values', async () => {
    history.replaceState(null, '', `${page}?offer=101`);
    sessionStorage.setItem('jobboard-utm', 'null');
    expect(utmOf(await applyWith('ok'))).to.deep.equal({});
  });

  it('posts none, and forgets those it kept, when the proxy does not track them', async () => {
    history.replaceState(null, '', `${page}?utm_source=newsletter`);
    const fields = await applyWith('no-utm');
    expect(utmOf(fields)).to.deep.equal({});
    expect(sessionStorage.getItem('jobboard-utm')).to.equal(null);
  });

  it('leaves the session storage alone on a page without utm_*', async () => {
    history.replaceState(null, '', `${page}?offer=101`);
    const { getItem, setItem } = Storage.prototype;
    const touched: string[] = [];
    Storage.prototype.getItem = function (key: string) {
      touched.push(`get ${key}`);
      return getItem.call(this, key);
    };
    Storage.prototype.setItem = function (key: string, value: string) {
      touched.push(`set ${key}`);
      setItem.call(this, key, value);
    };
    try {
      const { endpoint } = standIn('ok');
      const list = await fixture<JobboardCampaigns>(
        html`<jobboard-campaigns endpoint=${endpoint} lang="en"></jobboard-campaigns>`,
      );
      await list.updateComplete;
    } finally {
      Object.assign(Storage.prototype, { getItem, setItem });
    }
    expect(touched).to.deep.equal([]);
  });

  it('posts none when the visit came without any', async () => {
    history.replaceState(null, '', `${page}?offer=101`);
    expect(utmOf(await applyWith('ok'))).to.deep.equal({});
  });
});
