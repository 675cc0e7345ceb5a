import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { linesByTurn } from './log-destination.ts';

function recordingTarget() {
  const writes: string[] = [];
  return { writes, target: { write: (text: string) => writes.push(text) > 0 } };
}

/** Runs `code` (an ES module importing the logger) in a process of its own; its stdout lines, parsed. */
function linesOfProcess(code: string): { status: number | null; lines: { msg: string }[] } {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: import.meta.dirname,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return {
    status: run.status,
    lines: run.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string }),
  };
}

describe('log lines written once per turn of the event loop', () => {
  it('writes the lines of one turn together, in order, once the turn ends', async () => {
    const { writes, target } = recordingTarget();
    const lines = linesByTurn(target);
    lines.write('{"n":1}\n');
    lines.write('{"n":2}\n');
    lines.write('{"n":3}\n');
    assert.deepEqual(writes, [], 'nothing is written during the turn');
    await nextTurn();
    assert.deepEqual(writes, ['{"n":1}\n{"n":2}\n{"n":3}\n']);
    lines.write('{"n":4}\n');
    await nextTurn();
    assert.deepEqual(writes, ['{"n":1}\n{"n":2}\n{"n":3}\n', '{"n":4}\n'], 'a later turn is written on its own');
  });

  it('writes what is pending at once when flushed, then calls back', () => {
    const { writes, target } = recordingTarget();
    const lines = linesByTurn(target);
    lines.write('{"n":1}\n');
    let called = false;
    lines.flush(() => {
      called = true;
    });
    assert.ok(called);
    assert.deepEqual(writes, ['{"n":1}\n']);
    lines.flushSync();
    assert.deepEqual(writes, ['{"n":1}\n'], 'nothing is written twice');
  });

  it("writes a process's last lines on stdout when it exits in the turn that logged them", () => {
    const { status, lines } = linesOfProcess(`
      import { createLogger } from './logger.ts';
      const logger = createLogger();
      for (let i = 0; i < 3; i++) logger.info('line ' + i);
      createLogger().warn('from another logger');
      process.exit(3);
    `);
    assert.equal(status, 3);
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['line 0', 'line 1', 'line 2', 'from another logger'],
    );
  });

  it('writes the lines logged before an uncaught error ends the process', () => {
    const { status, lines } = linesOfProcess(`
      import { createLogger } from './logger.ts';
      createLogger().error('about to fail');
      throw new Error('boom');
    `);
    assert.equal(status, 1);
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['about to fail'],
    );
  });
});
