// helmet's security headers, recorded once at start-up and then set by one
// loop per request, a step of the app's first middleware. With the options
// the proxy gives it, helmet's headers depend on nothing in the request, and
// its chain of a dozen middlewares per request was a measurable part of the
// cost of a catalogue answer. helmet stays the one definition of the set: it
// is what gets recorded.
import type { Request, RequestHandler, Response } from 'express';

/** A function setting on an answer the headers `middleware` sets when run once. */
export function recordedHeaders(middleware: RequestHandler): (res: Response) => void {
  const set: [string, string][] = [];
  const removed: string[] = [];
  // Only what helmet calls: anything else it might call in a later version
  // throws here, at start-up, rather than being missed.
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, String(value)]);
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let done = false;
  void middleware({} as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
    done = true;
  });
  if (!done)
    throw new Error('recordedHeaders: the middleware did not finish synchronously; its headers cannot be recorded.');
  return (res) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
  };
}
