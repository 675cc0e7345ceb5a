// What the apply controller reads of a browser, for its Node tests, put on
// globalThis when this module loads: the tab's sessionStorage (a Storage over
// a Map), the page's location, FormData built from a form (the form stand-in
// gives its entries), and XMLHttpRequest over node:http, so that an upload is
// a real HTTP request to the proxy's stand-in, with its progress.
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';

/** The board's page the widget runs in. */
export const PAGE_URL = 'https://board.example/jobs/backend-developer';

/** sessionStorage's interface over a Map: what one tab keeps. */
class MemoryStorage {
  readonly #items = new Map<string, string>();
  get length(): number {
    return this.#items.size;
  }
  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.#items.delete(key);
  }
  clear(): void {
    this.#items.clear();
  }
}

/** A form, as FormData reads it: its entries in document order (the form data set the browser builds). */
export interface FormEntries {
  formEntries(): [string, string | File][];
}

/** FormData as the browser's: `new FormData(form)` takes the form's entries (Node's takes no form). */
class FormDataOfForm extends FormData {
  constructor(form?: HTMLFormElement) {
    super();
    if (form === undefined) return;
    for (const [name, value] of (form as unknown as FormEntries).formEntries()) this.append(name, value);
  }
}

/**
 * XMLHttpRequest as the upload uses it, over node:http: the body sent in
 * parts (`uploadSteps`), an upload `progress` event after each, then `load`
 * with the answer, `error` when the connection fails, `abort` on abort().
 */
export class NodeXMLHttpRequest extends EventTarget {
  /** Where each part of a body ends, as fractions of it: a progress event follows each. */
  static uploadSteps: readonly number[] = [0.25, 0.5, 0.75, 1];
  readonly upload = new EventTarget();
  status = 0;
  responseText = '';
  method = '';
  url = '';
  readonly headers: Record<string, string> = {};
  #request: ClientRequest | undefined;
  #done = false;

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  send(body: FormData): void {
    this.#send(body).catch(() => {
      // A write cut by an abort or a dropped connection: the request's own events say what happened.
    });
  }

  async #send(body: FormData): Promise<void> {
    const encoded = new Response(body);
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    if (this.#done) return;
    const req = request(this.url, {
      method: this.method,
      headers: {
        ...this.headers,
        'content-type': encoded.headers.get('content-type') ?? '',
        'content-length': String(bytes.length),
      },
    });
    this.#request = req;
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => this.#finish('load', res.statusCode ?? 0, Buffer.concat(chunks).toString()));
      res.on('error', () => this.#finish('error'));
    });
    req.on('error', () => this.#finish('error'));
    let sent = 0;
    for (const step of NodeXMLHttpRequest.uploadSteps) {
      const end = Math.floor(bytes.length * step);
      await new Promise<void>((resolve, reject) =>
        req.write(bytes.subarray(sent, end), (error) => (error ? reject(error) : resolve())),
      );
      sent = end;
      if (this.#done) return;
      const progress = Object.assign(new Event('progress'), {
        lengthComputable: true,
        loaded: sent,
        total: bytes.length,
      });
      this.upload.dispatchEvent(progress);
    }
    req.end();
  }

  #finish(type: 'load' | 'error', status = 0, text = ''): void {
    if (this.#done) return;
    this.#done = true;
    this.status = status;
    this.responseText = text;
    this.dispatchEvent(new Event(type));
  }

  /** As a browser's: nothing once the request has ended. */
  abort(): void {
    if (this.#done) return;
    this.#done = true;
    this.#request?.destroy();
    this.dispatchEvent(new Event('abort'));
  }
}

const globals: Record<string, unknown> = {
  sessionStorage: new MemoryStorage(),
  location: new URL(PAGE_URL),
  FormData: FormDataOfForm,
  XMLHttpRequest: NodeXMLHttpRequest,
};
for (const [name, value] of Object.entries(globals)) {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}
