// proxy.ts (Next.js's request proxy, middleware.ts before Next.js 16): a page has no way to answer 410, so the
// offer's page asks the jobboard proxy first and answers its 404 or 410 Gone, with the page's own content
// (the fragment says the offer is not or no longer open, with the way back to the list).
import { NextResponse } from 'next/server';
import type { NextRequest } from 'next/server';

const PROXY = process.env.JOBBOARD_PROXY_URL ?? 'http://127.0.0.1:8080';

export async function proxy(request: NextRequest) {
  const offer = request.nextUrl.searchParams.get('offer');
  if (offer === null) return NextResponse.next();
  const head = await fetch(`${PROXY}/embed/campaigns/head?${new URLSearchParams({ offer })}`, {
    signal: AbortSignal.timeout(3000),
  }).catch(() => null);
  const status = head?.status;
  return NextResponse.next(status === 404 || status === 410 ? { status } : undefined);
}

export const config = { matcher: '/jobs' };
