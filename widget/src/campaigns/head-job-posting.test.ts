import { expect } from '@open-wc/testing';
import { standIn } from '../internal/test-helpers.ts';
import { HeadJobPosting } from './head-job-posting.ts';

const postings = () => document.head.querySelectorAll('script[type="application/ld+json"]');

function element(isConnected: boolean, noStructuredData = false) {
  return { endpoint: standIn().endpoint, noStructuredData, isConnected, addController() {}, removeController() {}, requestUpdate() {}, updateComplete: Promise.resolve(true) };
}

describe('the open offer\'s JobPosting in the head', () => {
  afterEach(() => postings().forEach((script) => script.remove()));

  it('puts the offer\'s JobPosting in the head, one at a time, and takes it out when the element leaves the page', async () => {
    const host = element(true);
    const posting = new HeadJobPosting(host);
    await posting.load(100);
    await posting.load(101);
    expect(postings().length).to.equal(1);
    expect((JSON.parse(postings()[0]!.textContent!) as { identifier: { value: string } }).identifier.value).to.equal('101');
    posting.hostDisconnected();
    expect(postings().length).to.equal(0);
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
});
