// app/jobs/page.tsx: the offers rendered by the proxy (GET /embed/campaigns) in this page's HTML,
// made interactive by the proxy's widget.js.
import type { Metadata } from 'next';
import { FORWARDED_PAGE_PARAMS } from 'jobboard-connector/proxy';

/** Where this server reaches the proxy, and where the visitors' browsers do (its PUBLIC_ORIGIN). */
const PROXY = process.env.JOBBOARD_PROXY_URL ?? 'http://127.0.0.1:8080';
const PUBLIC_PROXY = process.env.JOBBOARD_PUBLIC_URL ?? 'https://your-proxy.example';
/** The proxy's answers may be kept a minute, per query string; an answer is awaited 3 s at most. */
const cached = () => ({ next: { revalidate: 60 }, signal: AbortSignal.timeout(3000) });

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** Only the list's parameters: a link to this page can carry any other. */
async function forwarded({ searchParams }: Props): Promise<URLSearchParams> {
  const page = await searchParams;
  const query = new URLSearchParams({ lang: 'en' });
  for (const name of FORWARDED_PAGE_PARAMS) {
    const value = page[name];
    if (typeof value === 'string') query.set(name, value);
  }
  return query;
}

/** The open offer's title, description, canonical URL and link preview, from GET /embed/campaigns/head. */
export async function generateMetadata(props: Props): Promise<Metadata> {
  const offer = (await forwarded(props)).get('offer');
  const head =
    offer &&
    (await fetch(`${PROXY}/embed/campaigns/head?${new URLSearchParams({ offer })}`, cached()).catch(() => null));
  if (!head || head.status !== 200) return { title: 'Jobs', description: 'The job offers of our board.' };
  const tags = await head.text();
  // Tags like <meta property="og:title" content="…">, their values escaped as &#NN;.
  const value = (pattern: string) =>
    (new RegExp(pattern).exec(tags)?.[1] ?? '').replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
  const title = value('<title>([^<]*)</title>');
  const description = value('name="description" content="([^"]*)"');
  const url = value('rel="canonical" href="([^"]*)"') || undefined;
  return {
    title,
    description,
    alternates: { canonical: url },
    openGraph: { type: 'website', title, description, url },
    twitter: { card: 'summary', title, description },
  };
}

export default async function JobsPage(props: Props) {
  let offers = `<jobboard-campaigns endpoint="${PUBLIC_PROXY}"></jobboard-campaigns>`;
  try {
    const answer = await fetch(`${PROXY}/embed/campaigns?${await forwarded(props)}`, cached());
    // The fragment on 200, 404 and 410 only: any other answer is not HTML for this page.
    if ([200, 404, 410].includes(answer.status)) offers = await answer.text();
  } catch {
    // The proxy out of reach: the empty element fetches the offers itself.
  }
  return (
    <main>
      <h1>Jobs</h1>
      {/* The browser attaches the element's shadow root as it parses it, then widget.js takes it over: not React's to check. */}
      <div dangerouslySetInnerHTML={{ __html: offers }} suppressHydrationWarning />
      <script type="module" src={`${PUBLIC_PROXY}/widget.js`} />
    </main>
  );
}
