import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XSS_PAYLOADS, assertHarmless } from './fixtures.ts';
import { htmlToText, sanitizeCampaignHtml } from './sanitize.ts';

describe('sanitizeCampaignHtml', () => {
  for (const payload of XSS_PAYLOADS) {
    it(`leaves nothing executable or stylistic in ${JSON.stringify(payload).slice(0, 70)}`, () => {
      assertHarmless(sanitizeCampaignHtml(payload) ?? '');
    });
  }

  it('keeps the text structure recruiters write: paragraphs, emphasis, lists, headings', () => {
    const html = '<p>Join <strong>us</strong> and <em>grow</em>.</p><ul><li>one</li><li>two</li></ul><h4>Perks</h4><br>';
    assert.equal(sanitizeCampaignHtml(html), html.replace('<br>', '<br />'));
  });

  it('turns h1 and h2 into h3 so a description never outranks the card title', () => {
    assert.equal(sanitizeCampaignHtml('<h1>A</h1><h2>B</h2>'), '<h3>A</h3><h3>B</h3>');
  });

  it('keeps http(s) and mailto links, opening elsewhere without a handle on the page', () => {
    assert.equal(
      sanitizeCampaignHtml('<a href="https://acme.example/jobs" target="_self" onclick="x()">jobs</a>'),
      '<a href="https://acme.example/jobs" rel="noopener noreferrer nofollow ugc" target="_blank">jobs</a>',
    );
    assert.match(sanitizeCampaignHtml('<a href="mailto:jobs@acme.example">mail</a>') ?? '', /href="mailto:jobs@acme.example"/);
  });

  it('keeps the text of a javascript: link but not its target', () => {
    assert.equal(sanitizeCampaignHtml('<a href="javascript:alert(1)">click</a>'), '<a rel="noopener noreferrer nofollow ugc" target="_blank">click</a>');
  });

  it('drops script and style contents rather than showing them as text', () => {
    assert.equal(sanitizeCampaignHtml('<p>a</p><script>alert(1)</script><style>p{}</style>'), '<p>a</p>');
  });

  it('answers null for null and for HTML with nothing left', () => {
    assert.equal(sanitizeCampaignHtml(null), null);
    assert.equal(sanitizeCampaignHtml('<script>x</script>  '), null);
  });
});

describe('htmlToText', () => {
  it('gives the words of the HTML, entities decoded, for the search index', () => {
    assert.equal(htmlToText('<p>R&amp;D&nbsp;team</p><script>evil()</script><ul><li>Lyon</li></ul>'), 'R&D team Lyon');
  });
});
