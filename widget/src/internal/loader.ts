// Loading what an element shows from the proxy, one request at a time: a
// newer load aborts the one under way, whose answer no longer matters. One
// under way when the element leaves the page goes on, so that the element
// shows it when it comes back.
import type { ReactiveControllerHost } from 'lit';
import { ProblemError, isRefusal } from './api.ts';

/** `gone`: the proxy answered 404 (an offer closed or unknown); `refused`: it does not allow this page's origin. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error' | 'gone' | 'refused';

/** What a failed request means to the candidate. */
function failureOf(error: unknown): 'refused' | 'gone' | 'error' {
  return isRefusal(error) ? 'refused' : error instanceof ProblemError && error.status === 404 ? 'gone' : 'error';
}

type Task<T> = (signal: AbortSignal) => Promise<T>;

export class Loader<T> {
  status: LoadStatus = 'idle';
  /** The last value loaded, kept while the next one loads. */
  value: T | null = null;
  /** Why the last load failed (a ProblemError says the proxy's reason). */
  error: unknown;
  /** The element, rendered again at each change. */
  private readonly host: Pick<ReactiveControllerHost, 'requestUpdate'>;
  private request: AbortController | null = null;

  constructor(host: Pick<ReactiveControllerHost, 'requestUpdate'>) {
    this.host = host;
  }

  /** Loads in place of any load under way; answers whether this load's outcome is the one shown. */
  async run(task: Task<T>): Promise<boolean> {
    this.stop();
    const request = (this.request = new AbortController());
    this.setStatus('loading');
    try {
      const value = await task(request.signal);
      if (request.signal.aborted) return false;
      this.value = value;
      this.setStatus('ready');
    } catch (error) {
      if (request.signal.aborted) return false;
      this.error = error;
      this.setStatus(failureOf(error));
    }
    return true;
  }

  /** Shows `value` as loaded (the state rendered on the server), or nothing with null, dropping any load under way. */
  show(value: T | null, status: LoadStatus = value ? 'ready' : 'idle'): void {
    this.stop();
    this.value = value;
    this.setStatus(status);
  }

  private stop(): void {
    this.request?.abort();
    this.request = null;
  }

  private setStatus(status: LoadStatus): void {
    this.status = status;
    this.host.requestUpdate();
  }
}
