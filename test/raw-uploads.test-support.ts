// Uploads over raw sockets, for the tests of what the proxy does with uploads
// that do not end well: a POST /api/applications whose headers announce a
// whole multipart body of which only a first part is sent, from a chosen
// loopback address (every 127.x.y.z is this machine on Linux).
import { connect } from 'node:net';
import type { Socket } from 'node:net';

export const BOUNDARY = '----raw-upload';

/** The multipart body of an application whose resume (`resume`, sent as a PDF) is its last part. */
export function applicationBody(fields: Record<string, string>, resume: Buffer): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const fileHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="resume"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
  return Buffer.concat([Buffer.from(parts.join('') + fileHead), resume, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

export interface RawUpload {
  socket: Socket;
  /** Everything the proxy sent back, once the socket closed. */
  answer: Promise<string>;
  /** Sends more of the body. */
  send(bytes: Buffer): void;
}

/**
 * Opens a POST /api/applications announcing `contentLength` bytes (none:
 * pass a Transfer-Encoding header) and sends `first` of them. `localAddress` picks the client's loopback address.
 */
export function openRawUpload(
  url: string,
  options: {
    contentLength?: number;
    first?: Buffer;
    localAddress?: string;
    key?: string;
    headers?: Record<string, string>;
  },
): Promise<RawUpload> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(
      {
        port: Number(port),
        host: hostname,
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      },
      () => {
        const lines = [
          'POST /api/applications HTTP/1.1',
          `Host: ${hostname}:${port}`,
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
          ...(options.contentLength === undefined ? [] : [`Content-Length: ${options.contentLength}`]),
          `Idempotency-Key: ${options.key ?? crypto.randomUUID()}`,
          ...Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
        ];
        socket.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (options.first !== undefined) socket.write(options.first);
        resolve({ socket, answer, send: (bytes) => socket.write(bytes) });
      },
    );
    let received = '';
    const answer = new Promise<string>((done) => {
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('close', () => done(received));
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

export const statusOf = (raw: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);

/** The problem code of a raw answer, if it holds one. */
export const codeOf = (raw: string): string | undefined => /"code":"([a-z_]+)"/.exec(raw)?.[1];
