import { expect, fixture, html } from '@open-wc/testing';
import { defineElement } from './define.ts';
import { formatBytes, formatPlace } from './format.ts';
import type { CampaignDetail } from './api.ts';
import { sanitize } from './html.ts';
import { jobTypeLabel, workingTimeLabel } from './labels.ts';
import { resolveLocale, supportedLocale, useLocale } from './localize.ts';
import { JOB_TYPES, WORKING_TIMES } from '../../../server/contract/values.ts';
import { addressOf } from '../../../server/test/addresses.ts';
import { uuid } from './uuid.ts';
import { isWebUrl } from './web-url.ts';

describe('internal helpers', () => {
  describe('defineElement', () => {
    it('when the tag is already registered (the script loaded twice), leaves the first definition alone', () => {
      class First extends HTMLElement {}
      class Second extends HTMLElement {}
      defineElement('jobboard-test-twice', First);
      expect(() => defineElement('jobboard-test-twice', Second)).not.to.throw();
      expect(customElements.get('jobboard-test-twice')).to.equal(First);
    });
  });

  describe('formatPlace', () => {
    const offer = { city: 'Nantes', country: 'France' } as CampaignDetail;

    it('writes each part of an address once, even when its name repeats the city and country', () => {
      expect(
        formatPlace({
          ...offer,
          address: addressOf({ postal_code: '44000', city: 'Nantes', country: 'France', name: 'Nantes, France' }),
        }),
      ).to.equal('44000 Nantes, France');
      expect(
        formatPlace({
          ...offer,
          address: addressOf({
            street_number: '3',
            street: 'quai de la Fosse',
            postal_code: '44000',
            name: '3 quai de la Fosse, 44000 Nantes',
          }),
        }),
      ).to.equal('3 quai de la Fosse, 44000 Nantes, France');
    });

    it("without a street or postal code, writes the address's name, else the offer's city and country", () => {
      expect(formatPlace({ ...offer, address: addressOf({ city: 'Nantes', name: 'Tour Bretagne, Nantes' }) })).to.equal(
        'Tour Bretagne, Nantes',
      );
      expect(formatPlace({ ...offer, address: addressOf({ city: 'Nantes' }) })).to.equal('Nantes, France');
      expect(formatPlace({ ...offer, address: null })).to.equal('Nantes, France');
      expect(formatPlace({ ...offer, country: null })).to.equal('Nantes');
    });
  });

  describe('contract type and working time labels', () => {
    afterEach(() => useLocale('en'));

    for (const lang of ['fr', 'es'] as const) {
      it(`give every value of the API a label of its own in ${lang}`, async () => {
        await useLocale(lang);
        const jobTypes = JOB_TYPES.map(jobTypeLabel);
        const workingTimes = WORKING_TIMES.map(workingTimeLabel);
        // Translated (Freelance is also French), and no two values share a label.
        expect(jobTypes.filter((label, i) => label === JOB_TYPES[i])).to.deep.equal(
          ['Freelance'].filter(() => lang === 'fr'),
        );
        expect(workingTimes.filter((label, i) => label === WORKING_TIMES[i])).to.deep.equal([]);
        expect(new Set(jobTypes).size).to.equal(JOB_TYPES.length);
        expect(new Set(workingTimes).size).to.equal(WORKING_TIMES.length);
      });
    }

    it("in French, use the words of French job ads: CDI, CDD, VIE for the API's IVB, Temps plein", async () => {
      await useLocale('fr');
      expect(['Permanent contract', 'Fixed term contract', 'IVB', 'Tenured'].map(jobTypeLabel)).to.deep.equal([
        'CDI',
        'CDD',
        'VIE',
        'Titulaire',
      ]);
      expect(['Full time', 'Part time - Afternoon', 'Custom'].map(workingTimeLabel)).to.deep.equal([
        'Temps plein',
        'Temps partiel – après-midi',
        'Horaires personnalisés',
      ]);
    });

    it('show a value they do not know as it came, in any language', async () => {
      await useLocale('es');
      expect(jobTypeLabel('Seasonal work')).to.equal('Seasonal work');
      expect(workingTimeLabel('full time')).to.equal('full time');
    });
  });

  describe('sanitize', () => {
    it('keeps formatting and http(s) links, drops scripts, handlers, styles and javascript: links', () => {
      const holder = document.createElement('div');
      holder.append(
        sanitize(
          '<h2 style="color:red">Title</h2><p onclick="x()">Hi <strong>there</strong></p><script>alert(1)</script>' +
            '<a href="https://ok.example">ok</a><a href="javascript:alert(1)">bad</a><img src=x onerror="alert(1)"><iframe src="https://x"></iframe>',
        ),
      );
      expect(holder.innerHTML).to.equal(
        'Title<p>Hi <strong>there</strong></p><a href="https://ok.example" rel="noopener noreferrer" target="_blank">ok</a><a rel="noopener noreferrer" target="_blank">bad</a>',
      );
    });
  });

  describe('sanitize, tag by tag', () => {
    const cleaned = (html: string): string => {
      const holder = document.createElement('div');
      holder.append(sanitize(html));
      return holder.innerHTML;
    };

    it('keeps every tag of its allowlist, and its text', () => {
      for (const tag of [
        'p',
        'ul',
        'ol',
        'li',
        'strong',
        'b',
        'em',
        'i',
        'u',
        'h3',
        'h4',
        'h5',
        'h6',
        'blockquote',
        'span',
        'div',
      ]) {
        expect(cleaned(`<${tag}>x</${tag}>`), tag).to.equal(`<${tag}>x</${tag}>`);
      }
      expect(cleaned('a<br>b')).to.equal('a<br>b');
    });

    it('drops script, style, frames, objects, SVG and MathML with everything in them', () => {
      for (const html of [
        '<script>x</script>',
        '<style>x</style>',
        '<iframe>x</iframe>',
        '<object><p>x</p></object>',
        '<svg><text>x</text></svg>',
        '<math><mi>x</mi></math>',
      ]) {
        expect(cleaned(`<p>kept</p>${html}`), html).to.equal('<p>kept</p>');
      }
    });

    it('keeps the text of an unknown tag but not the tag, and drops comments', () => {
      expect(cleaned('<font color="red">a<!-- note --></font><noscript><b>b</b></noscript>')).to.equal('a<b>b</b>');
    });

    it('keeps the text of an unknown tag whose name starts like a dangerous one', () => {
      expect(cleaned('<svg-icon>a</svg-icon><script-note>b</script-note>')).to.equal('ab');
    });

    it('keeps the text of an unknown tag whose name ends like an allowed one, not the tag', () => {
      expect(cleaned('<textarea>a</textarea><sup>b</sup><data>c</data>')).to.equal('abc');
    });

    it('keeps an href on links only, trimmed, and a link without one as text', () => {
      expect(cleaned('<p href="https://ok.example">a</p>')).to.equal('<p>a</p>');
      expect(cleaned('<a href="  https://ok.example/ ">b</a>')).to.equal(
        '<a href="https://ok.example/" rel="noopener noreferrer" target="_blank">b</a>',
      );
      expect(cleaned('<a>c</a>')).to.equal('<a rel="noopener noreferrer" target="_blank">c</a>');
    });
  });

  describe('sanitize, links whose scheme is not at the start', () => {
    it('drops a link that only contains http(s): or mailto: after another scheme', () => {
      const hrefs = [
        'javascript:alert(1)//https://x.example',
        'JavaScript:alert(document.domain)//http://x.example',
        ' javascript:alert(1)//https:',
        'data:text/html,<script>alert(1)</script>https://x.example',
        'vbscript:msgbox(1)//mailto:a@b.example',
        'jav&#x09;ascript:alert(1)//https://x.example',
      ];
      for (const href of hrefs) {
        const holder = document.createElement('div');
        const a = document.createElement('a');
        a.setAttribute('href', href);
        a.textContent = 'link';
        holder.append(sanitize(a.outerHTML));
        expect(holder.querySelector('a')?.hasAttribute('href'), href).to.equal(false);
        expect(holder.textContent, href).to.equal('link');
      }
    });

    it('keeps http(s) and mailto: links, whatever their case', () => {
      const holder = document.createElement('div');
      holder.append(
        sanitize(
          '<a href="HTTPS://ok.example/a">a</a><a href="http://ok.example">b</a><a href="mailto:jobs@ok.example">c</a>',
        ),
      );
      expect([...holder.querySelectorAll('a')].map((a) => a.getAttribute('href'))).to.deep.equal([
        'HTTPS://ok.example/a',
        'http://ok.example',
        'mailto:jobs@ok.example',
      ]);
    });
  });

  describe('sanitize on hostile descriptions', () => {
    // Counted, not timed: a cleaner that rescans or moves nodes after each tag takes seconds on these; this one
    // appends each kept node once and queries nothing.
    const DOM_CALLS: [{ prototype: object }, string][] = [
      [Node, 'appendChild'],
      [Node, 'insertBefore'],
      [Node, 'removeChild'],
      [Node, 'replaceChild'],
      [Node, 'cloneNode'],
      [Element, 'querySelector'],
      [Element, 'querySelectorAll'],
      [Element, 'remove'],
      [Element, 'replaceWith'],
      [Element, 'append'],
      [Element, 'prepend'],
      [Element, 'before'],
      [Element, 'after'],
      [DocumentFragment, 'querySelector'],
      [DocumentFragment, 'querySelectorAll'],
      [DocumentFragment, 'append'],
      [DocumentFragment, 'prepend'],
    ];
    /** The DOM calls `run` makes, by method, and what it returned. */
    function countDomCalls<T>(run: () => T): { result: T; calls: Record<string, number> } {
      const calls: Record<string, number> = {};
      const originals = DOM_CALLS.map(([type, name]) => {
        const target = type.prototype as Record<string, (...args: unknown[]) => unknown>;
        const original = target[name]!;
        target[name] = function (this: unknown, ...args: unknown[]) {
          calls[name] = (calls[name] ?? 0) + 1;
          return original.apply(this, args);
        };
        return () => (target[name] = original);
      });
      try {
        return { result: run(), calls };
      } finally {
        for (const restore of originals) restore();
      }
    }
    const nodesIn = (root: Node) => {
      let count = 0;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ALL);
      while (walker.nextNode()) count += 1;
      return count;
    };

    it('cleans 25,000 <hr> appending each kept node once, keeping the text between them', () => {
      const { result, calls } = countDomCalls(() => sanitize('<p>a</p>' + '<hr>x'.repeat(25_000)));
      const kept = nodesIn(result);
      expect(calls).to.deep.equal({ appendChild: kept });
      const holder = document.createElement('div');
      holder.append(result);
      expect(holder.querySelector('hr')).to.equal(null);
      expect(holder.textContent).to.equal('a' + 'x'.repeat(25_000));
    });

    it('cleans 25,000 unknown tags, side by side and 500 deep, appending each kept node once, keeping their text and the allowed tags inside', () => {
      const deep =
        '<font>'.repeat(500) + '<strong onclick="x()">deep</strong><script>alert(1)</script>' + '</font>'.repeat(500);
      const { result, calls } = countDomCalls(() => sanitize('<font>y</font>'.repeat(25_000) + deep));
      expect(calls).to.deep.equal({ appendChild: nodesIn(result) });
      const holder = document.createElement('div');
      holder.append(result);
      expect(holder.innerHTML).to.equal('y'.repeat(25_000) + '<strong>deep</strong>');
    });
  });

  describe('formatBytes', () => {
    it('writes the size limit the way each language does', () => {
      expect(formatBytes('en', 10485760)).to.equal('10\u00a0MB');
      expect(formatBytes('en', 1572864)).to.equal('1.5\u00a0MB');
      expect(formatBytes('es', 2048)).to.equal('2\u00a0KB');
    });
  });

  describe('language', () => {
    it('takes the language part of a tag and refuses unsupported ones', () => {
      expect(supportedLocale('fr-CA')).to.equal('fr');
      expect(supportedLocale('ES')).to.equal('es');
      expect(supportedLocale('de')).to.equal(null);
    });

    it('uses the element lang, then the nearest ancestor lang across shadow roots, then the browser', async () => {
      const host = await fixture(
        html`<div lang="es-AR">
          <span></span>
          <p lang="de"><i></i></p>
        </div>`,
      );
      expect(resolveLocale(host.querySelector('span')!)).to.deep.equal({ locale: 'es', tag: 'es-AR' });
      expect(resolveLocale(host.querySelector('i')!).locale).to.equal('es');
      const shadowHost = host.querySelector('span')!;
      const inner = document.createElement('b');
      shadowHost.attachShadow({ mode: 'open' }).append(inner);
      expect(resolveLocale(inner).tag).to.equal('es-AR');
    });
  });

  describe('uuid', () => {
    it('makes version 4 UUIDs, different each time', () => {
      const a = uuid();
      expect(a).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(uuid()).not.to.equal(a);
    });
  });

  describe('isWebUrl', () => {
    it('takes http(s) URLs and URLs relative to the page, the empty one included', () => {
      for (const value of [
        'https://jobs-proxy.example.org',
        'http://127.0.0.1:8080/',
        'HTTPS://X.EXAMPLE/a?b#c',
        '/jobs',
        'jobs',
        '',
        '?offer=2',
        '//jobs.example',
      ]) {
        expect(isWebUrl(value), value).to.equal(true);
      }
    });

    it('refuses every other scheme, however it is written', () => {
      for (const value of [
        'javascript:alert(1)',
        ' JavaScript:alert(1)',
        'java\tscript:alert(1)',
        '\njavascript:alert(1)',
        'data:text/html,<b>x</b>',
        'ftp://proxy.example',
        'mailto:a@b.example',
        'file:///etc/passwd',
        'blob:https://x.example/1',
        'http://[bad',
      ]) {
        expect(isWebUrl(value), JSON.stringify(value)).to.equal(false);
      }
    });
  });
});
