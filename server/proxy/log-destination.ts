// Where the proxy's log lines go: stdout, one write per turn of the event
// loop. pino hands each line over as soon as it is made; under load one turn
// answers several requests, and one write per line (through the thread pool,
// as pino's asynchronous destination does) was about a sixth of the CPU time
// of a catalogue answer. Here the lines of a turn are gathered and written
// together when the turn ends, with one blocking write, as Node writes
// process.stdout to files and pipes: nothing is held longer than the turn
// that made it, and what is left when the process exits is written then.
import { pino } from 'pino';
import type { DestinationStream } from 'pino';

/** A destination pino's `logger.flush()` empties. */
export interface LineDestination extends DestinationStream {
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

/** Gathers the lines written during a turn, and writes them to a synchronous `target` as one string at its end or when flushed. */
export function linesByTurn(target: DestinationStream): LineDestination {
  let pending: string[] = [];
  let scheduled = false;
  const writePending = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.length === 1 ? pending[0]! : pending.join('');
    pending = [];
    target.write(text);
  };
  return {
    write(line: string) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(writePending);
      }
      return true;
    },
    // The target writes synchronously: once written, the lines are the system's.
    flush(callback) {
      writePending();
      callback?.();
    },
    flushSync: writePending,
  };
}

/** The lines of each turn written to `dest` (a file descriptor or a path) with one synchronous write. */
export function linesByTurnTo(dest: number | string): LineDestination {
  return linesByTurn(pino.destination({ dest, sync: true }));
}

let stdout: LineDestination | undefined;

/** stdout as a LineDestination, one for the process (every logger writing there shares it, so lines stay in order). */
export function stdoutLines(): LineDestination {
  if (stdout === undefined) {
    const lines = linesByTurnTo(1);
    process.on('exit', () => lines.flushSync());
    stdout = lines;
  }
  return stdout;
}
