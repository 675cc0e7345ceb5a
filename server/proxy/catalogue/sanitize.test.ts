import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XSS_PAYLOADS, assertHarmless } from './fixtures.test-support.ts';
import { DEMO_OFFERS, describeOffer, offerProfile } from '../../sandbox/seed.ts';
import { hasSanitizedShape, htmlToText, parsedText, sanitizeCampaignHtml } from './sanitize.ts';

describe('sanitizeCampaignHtml', () => {
  for (const payload of XSS_PAYLOADS) {
    it(`leaves nothing executable or stylistic in ${JSON.stringify(payload).slice(0, 70)}`, () => {
      assertHarmless(sanitizeCampaignHtml(payload) ?? '');
    });
  }

  it('keeps the text structure recruiters write: paragraphs, emphasis, lists, headings', () => {
    const html =
      '<p>Join <strong>us</strong> and <em>grow</em>.</p><ul><li>one</li><li>two</li></ul><h4>Perks</h4><br>';
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
    assert.match(
      sanitizeCampaignHtml('<a href="mailto:jobs@acme.example">mail</a>') ?? '',
      /href="mailto:jobs@acme.example"/,
    );
  });

  it('keeps the text of a javascript: link but not its target', () => {
    assert.equal(
      sanitizeCampaignHtml('<a href="javascript:alert(1)">click</a>'),
      '<a rel="noopener noreferrer nofollow ugc" target="_blank">click</a>',
    );
  });

  it('drops script and style contents rather than showing them as text', () => {
    assert.equal(sanitizeCampaignHtml('<p>a</p><script>alert(1)</script><style>p{}</style>'), '<p>a</p>');
  });

  it('keeps every tag of its allowlist, and its text', () => {
    for (const tag of 'p strong b em i u s ul ol li h3 h4 h5 h6 blockquote'.split(' ')) {
      assert.equal(sanitizeCampaignHtml(`<${tag}>x</${tag}>`), `<${tag}>x</${tag}>`, tag);
    }
    assert.equal(sanitizeCampaignHtml('a<hr>b<br>c'), 'a<hr />b<br />c');
  });

  it('keeps an http link as well as an https one, and a link without href as text with its rel and target', () => {
    assert.match(
      sanitizeCampaignHtml('<a href="http://acme.example/jobs">jobs</a>') ?? '',
      /href="http:\/\/acme.example\/jobs"/,
    );
    assert.equal(
      sanitizeCampaignHtml('<a>jobs</a>'),
      '<a rel="noopener noreferrer nofollow ugc" target="_blank">jobs</a>',
    );
  });

  it('drops the elements that hold no readable text, with their contents: forms, templates, frames, embedded objects, SVG, MathML, the head', () => {
    // Not embed: a void element, it has no contents to drop.
    for (const tag of 'textarea option noscript template iframe object svg math title head'.split(' ')) {
      assert.equal(sanitizeCampaignHtml(`<p>kept</p><${tag}>dropped</${tag}>`), '<p>kept</p>', tag);
    }
  });

  it('answers null for null, undefined and HTML with nothing left', () => {
    assert.equal(sanitizeCampaignHtml(null), null);
    assert.equal(sanitizeCampaignHtml(undefined), null);
    assert.equal(sanitizeCampaignHtml('<script>x</script>  '), null);
  });
});

describe('htmlToText', () => {
  it('gives the words of the HTML, entities decoded, for the search index', () => {
    assert.equal(htmlToText('<p>R&amp;D&nbsp;team</p><script>evil()</script><ul><li>Lyon</li></ul>'), 'R&D team Lyon');
    assert.equal(htmlToText('<p>1 &lt; 2 &gt; 0 &quot;quoted&quot; it&#39;s</p>'), `1 < 2 > 0 "quoted" it's`);
  });

  it('separates the words of two blocks, opening or closing, whatever the tag has in it', () => {
    assert.equal(htmlToText('<p>Lyon</p><p>Paris</p>'), 'Lyon Paris');
    assert.equal(htmlToText('Lyon<br>Paris<h2 class="x">Nice</h2>Lille<h6>Metz</h6>'), 'Lyon Paris Nice Lille Metz');
    assert.equal(htmlToText('Lyon<p class="a>b">Paris'), 'Lyon Paris');
    assert.equal(htmlToText('<span>Ly</span><b>on</b>'), 'Lyon', 'inline tags join');
  });

  it('gives the text alone, no tag left', () => {
    assert.equal(htmlToText('<a href="https://acme.example">jobs</a> <em>now</em>'), 'jobs now');
  });

  it('answers an empty text for null and undefined', () => {
    assert.equal(htmlToText(null), '');
    assert.equal(htmlToText(undefined), '');
  });

  describe('of the HTML the catalogue stores, read without a parser', () => {
    const written = [
      ...DEMO_OFFERS.flatMap((offer) => [
        describeOffer({ ...offer, city: 'Lyon' }, 'Acme & Co <Lyon>'),
        offerProfile(offer),
      ]),
      ...XSS_PAYLOADS,
      '<p>R&amp;D&nbsp;team &quot;quoted&quot; it&#39;s 1 &lt; 2 &gt; 0 &amp;lt; &#x3C;b&#x3E;</p><ul><li>Lyon</li><li>Paris</li></ul>',
      '<h1>A</h1>Lyon<br>Paris<hr><h6 class="x">Metz</h6><blockquote>Nice</blockquote><span>Ly</span><b>on</b><s>x</s><u>y</u>',
      '<a href="https://acme.example/?a=1&b=<2>&c=&quot;3&quot;" title="t">jobs</a> <a href="javascript:x()">now</a> a > b, c < d & e',
      '<p>\u00a0tab\tnew\nline  </p><ol><li><em>1</em></li></ol><h3>x</h3><h4>y</h4><h5>z</h5><i>i</i><strong>s</strong>',
    ];

    it('recognises every sanitised text, and gives the same words as the parser', () => {
      for (const html of written) {
        const sanitized = sanitizeCampaignHtml(html) ?? '';
        assert.ok(hasSanitizedShape(sanitized), sanitized);
        assert.equal(htmlToText(sanitized), parsedText(sanitized), sanitized);
      }
    });

    it('leaves HTML of any other shape to the parser, with the same words', () => {
      for (const html of [
        ...written,
        '<p class="a>b">Paris</p>',
        '<P>Lyon</P>',
        '<p title=x>Nice</p>',
        'a &copy; b',
        '<p>a<!-- c --></p>',
        '<a href="x"/>y',
      ]) {
        assert.equal(htmlToText(html), parsedText(html), html);
      }
      assert.equal(hasSanitizedShape('<script>x</script>'), false);
      assert.equal(hasSanitizedShape('<p title=x>Nice</p>'), false);
      assert.equal(hasSanitizedShape('a &copy; b'), false);
      assert.equal(hasSanitizedShape('a > b'), false);
    });
  });
});
