// The slowest an application's body may arrive. A body trickled in a few
// bytes at a time holds its upload place until UPLOAD_TIMEOUT_SECONDS; so,
// once a grace period has passed (a slow start, a mobile radio waking up),
// each following period of that length must bring at least
// UPLOAD_MIN_BYTES_PER_SECOND × its length, or the upload is closed.
// A period during which the proxy itself stopped reading (the disk was
// slow, the route had not started reading yet) is not held against it.

export interface PaceRule {
  /** The slowest pace accepted after the grace; 0: none. */
  minBytesPerSecond: number;
  /** The grace, and the length of every period judged after it. */
  periodMs: number;
}

export interface PaceWatch {
  /** The proxy stopped reading for a while: the current period is not judged. */
  excuse(): void;
  /** The body has arrived, or the upload ended otherwise. */
  stop(): void;
}

/**
 * Watches a body while it arrives: `received()` is the bytes read so far;
 * `tooSlow` is called once, when a period after the grace brought too few.
 */
export function watchPace(rule: PaceRule, received: () => number, tooSlow: () => void): PaceWatch {
  if (rule.minBytesPerSecond === 0) return { excuse: () => undefined, stop: () => undefined };
  const needed = (rule.minBytesPerSecond * rule.periodMs) / 1000;
  /** Bytes read when the current period began; undefined during the grace. */
  let mark: number | undefined;
  let excused = false;
  const timer = setInterval(() => {
    const now = received();
    if (mark !== undefined && !excused && now - mark < needed) {
      clearInterval(timer);
      tooSlow();
      return;
    }
    mark = now;
    excused = false;
  }, rule.periodMs);
  return {
    excuse: () => {
      excused = true;
    },
    stop: () => clearInterval(timer),
  };
}
