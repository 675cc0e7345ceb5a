// A search of a catalogue held in memory (the copy of a shared catalogue) is
// synchronous SQLite work on the event loop, up to its time budget (a file's
// run on a thread of their own). Run as they arrive, six costly searches keep
// every other request (a health check, an application) waiting for all six. Here the routes that search take turns:
// one at a time, and the next only once the event loop has read and answered
// what arrived meanwhile, so any other request waits for about one search,
// not for a burst.
import type { NextFunction, Request, Response } from 'express';

export type SearchTurns = (req: Request, res: Response, next: NextFunction) => void;

export function searchTurns(): SearchTurns {
  let busy = false;
  const waiting: Array<() => void> = [];
  // Two turns of the loop, the turn still taken: released in the first, a waiting search would run before the loop reads its sockets again.
  const release = () =>
    setImmediate(() =>
      setImmediate(() => {
        const next = waiting.shift();
        if (next === undefined) busy = false;
        else next();
      }),
    );
  return (_req, _res, next) => {
    // next() runs the route's handler, whose search is done before it first waits for anything.
    const run = () => {
      try {
        next();
      } finally {
        release();
      }
    };
    if (busy) {
      waiting.push(run);
      return;
    }
    busy = true;
    run();
  };
}
