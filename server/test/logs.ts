// The one log capture of the Node-side tests: the proxy's own logger
// (redaction and all, as in production) writing into memory, so a test reads
// exactly the lines an operator would see.
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../proxy/logger.ts';

export interface LogCapture {
  logger: Logger;
  /** Each line written, parsed. */
  lines: Record<string, unknown>[];
  /** Everything written, as the JSON lines it was. */
  text(): string;
}

export function captureLogs(level = 'info'): LogCapture {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '')) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: createLogger({ level, destination }), lines, text: () => raw.join('\n') };
}
