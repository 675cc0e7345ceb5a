// A job board's own web server in the end-to-end tests, on a free port of
// 127.0.0.1: its origin is what the proxy must allow.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Board {
  origin: string;
  server: Server;
}

/** Starts `server` listening; answers the board at its origin. */
export async function listenBoard(server: Server): Promise<Board> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
