// One attempt of a request whose body is streamed (a create carrying a
// StreamedFile), sent with node:http(s) instead of fetch. fetch gives no sign
// of when a chunk of the body has been written, so each chunk it is given must
// be a new buffer, left for the garbage collector: during a burst of 10 MB
// resumes, hundreds of MB of them. A node:http write calls back once its
// chunk is written, so the body's chunks can all be encoded into one buffer.
import { request as httpRequest } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { StreamedBody } from './streamed-json.ts';

export interface StreamedAnswer {
  response: Response;
  text: string;
}

/** The request failed before a whole answer was read; `cause` is the socket's or the body source's error. */
export class StreamedRequestError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

export async function sendStreamed(
  url: string,
  init: { method: string; headers: Record<string, string>; body: StreamedBody; signal: AbortSignal },
): Promise<StreamedAnswer> {
  const target = new URL(url);
  const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
    method: init.method,
    headers: { ...init.headers, 'content-length': String(init.body.length) },
    // A connection of its own: a create is never written on a kept-alive socket the server may be closing.
    agent: false,
    signal: init.signal,
  });
  let answered: IncomingMessage | undefined;
  const answer = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', (response) => {
      answered = response;
      resolve(response);
    });
    request.once('error', reject);
    request.once('close', () => reject(request.errored ?? new Error('the connection closed before an answer came')));
  });
  // Whichever of the writing and the answer fails first is reported; the other must not go unhandled.
  answer.catch(() => undefined);
  try {
    await writeBody(request, init.body, () => answered !== undefined);
    const response = await answer;
    response.setEncoding('utf8');
    let text = '';
    for await (const part of response) text += part as string;
    // The server answered before the whole body was written: the connection cannot carry anything else.
    if (!request.writableEnded) request.destroy();
    const headers = new Headers();
    for (let i = 0; i + 1 < response.rawHeaders.length; i += 2)
      headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
    const status = response.statusCode ?? 0;
    // Response refuses a body for 204 and 304; the text is kept beside it anyway.
    return { response: new Response(null, { status, statusText: response.statusMessage ?? '', headers }), text };
  } catch (error) {
    request.destroy();
    throw new StreamedRequestError(error);
  }
}

/**
 * Writes the body one chunk at a time, asking for the next only once the
 * last is written (the chunks share one buffer); stops early once the server
 * has answered.
 */
async function writeBody(request: ClientRequest, body: StreamedBody, answered: () => boolean): Promise<void> {
  const chunks = body.chunks();
  try {
    for await (const chunk of chunks) {
      if (answered()) return;
      await written(request, chunk);
    }
    request.end();
  } finally {
    // Closes the file being read when the loop stopped early.
    await chunks.return(undefined);
  }
}

/**
 * Resolves once `chunk` is written to the connection, or the server has
 * answered (the rest of the body is then not sent); rejects if the connection
 * fails first. After a failure or an answer the chunk's buffer may still be in
 * a write, but the body is abandoned and its buffer with it.
 */
function written(request: ClientRequest, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    // The connection may have failed while the chunk was read: its 'error' and 'close' have then been emitted already.
    if (request.destroyed) {
      reject(request.errored ?? new Error('the connection closed while the request was written'));
      return;
    }
    const done = (error?: unknown) => {
      request.off('response', onWritten).off('error', done).off('close', onClose);
      if (error === undefined || error === null) resolve();
      else reject(error);
    };
    const onWritten = () => done();
    const onClose = () => done(request.errored ?? new Error('the connection closed while the request was written'));
    request.on('response', onWritten).on('error', done).on('close', onClose);
    request.write(chunk, done);
  });
}
