import { expect } from '@open-wc/testing';
import { standIn, watchRequestsAndWarnings } from '../internal/test-support.ts';
import { HeadJobPosting } from './head-job-posting.ts';

const postings = () => document.head.querySelectorAll('script[type="application/ld+json"]');

function element(isConnected: boolean, noStructuredData = false) {
  return {
    endpoint: standIn().endpoint,
    noStructuredData,
    isConnected,
    addController() {},
    removeController() {},
    requestUpdate() {},
    updateComplete: Promise.resolve(true),
  };
}

describe("the open offer's JobPosting in the head", () => {
  afterEach(() => postings().forEach((script) => script.remove()));

  it("puts the offer's JobPosting in the head, one at a time, and takes it out when the element leaves the page", async () => {
    const host = element(true);
    const posting = new HeadJobPosting(host);
    await posting.load(100);
    await posting.load(101);
    expect(postings().length).to.equal(1);
    expect((JSON.parse(postings()[0]!.textContent!) as { identifier: { value: string } }).identifier.value).to.equal(
      '101',
    );
    posting.hostDisconnected();
    expect(postings().length).to.equal(0);
  });

  it('asks for the JobPosting only after the next frame is drawn: before, it took the network from the offer being shown', async () => {
    const held: FrameRequestCallback[] = [];
    const { requestAnimationFrame } = window;
    window.requestAnimationFrame = (callback) => held.push(callback);
    const watch = watchRequestsAndWarnings();
    const host = element(true);
    const posting = new HeadJobPosting(host);
    try {
      const loading = posting.load(100);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(watch.requests, 'no request before the frame').to.deep.equal([]);
      for (const callback of held.splice(0)) callback(performance.now());
      await loading;
      expect(watch.requests).to.deep.equal([`fetch ${host.endpoint}/api/campaigns/100/jobposting`]);
      expect(postings().length).to.equal(1);
    } finally {
      watch.restore();
      window.requestAnimationFrame = requestAnimationFrame;
      // Its title and tags out of the head.
      posting.hostDisconnected();
    }
  });

  it('when the element has left the page before the JobPosting came, leaves it out of the head: nothing would take it out', async () => {
    const posting = new HeadJobPosting(element(false));
    await posting.load(100);
    expect(postings().length).to.equal(0);
  });

  it('when the offer changed before the JobPosting came, leaves it out', async () => {
    const posting = new HeadJobPosting(element(true));
    const loading = posting.load(100);
    posting.show(null);
    await loading;
    expect(postings().length).to.equal(0);
  });

  it('with no-structured-data, neither fetches it nor adopts the one the server rendered', async () => {
    const posting = new HeadJobPosting(element(true, true));
    await posting.load(100);
    const rendered = document.createElement('script');
    rendered.type = 'application/ld+json';
    posting.adopt(rendered);
    expect(postings().length).to.equal(0);
  });

  describe("the head's tags for a shared link", () => {
    const meta = (key: string) =>
      document.head.querySelector(`meta[name="${key}"], meta[property="${key}"]`)?.getAttribute('content');
    const canonical = () => document.head.querySelector('link[rel="canonical"]')?.getAttribute('href');

    it("sets the title, description, canonical URL, Open Graph (its image too) and Twitter tags of the open offer, and puts the page's own back after it", async () => {
      document.title = 'Our jobs';
      const own = document.head.appendChild(document.createElement('meta'));
      own.name = 'description';
      own.content = 'Every job at Acme';
      try {
        const posting = new HeadJobPosting(element(true));
        await posting.load(100);
        await posting.load(101);
        expect(document.title).to.equal('Nurse 2 – Globex');
        expect(meta('description')).to.equal('Join Globex as Nurse 2 & grow.');
        expect(canonical()).to.equal('https://board.example/offers?offer=101');
        expect(
          [
            'og:type',
            'og:title',
            'og:description',
            'og:url',
            'og:image',
            'twitter:card',
            'twitter:title',
            'twitter:description',
          ].map(meta),
        ).to.deep.equal([
          'website',
          'Nurse 2 – Globex',
          'Join Globex as Nurse 2 & grow.',
          'https://board.example/offers?offer=101',
          'https://board.example/share.png',
          'summary',
          'Nurse 2 – Globex',
          'Join Globex as Nurse 2 & grow.',
        ]);
        expect(document.head.querySelectorAll('meta[property="og:title"]').length).to.equal(
          1,
          "one tag of each, the offer's",
        );
        posting.show(null);
        expect(document.title).to.equal('Our jobs');
        expect(meta('description')).to.equal('Every job at Acme');
        expect(meta('og:title')).to.equal(undefined);
        expect(meta('og:image')).to.equal(undefined);
        expect(canonical()).to.equal(undefined);
      } finally {
        own.remove();
      }
    });
  });
});
