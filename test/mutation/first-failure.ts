// A node:test reporter for the mutation check: the first failing test ends
// the run, since one failure already kills the mutant and the rest of the
// command's tests would only cost time. Prints that failure's name. The run
// ends before the tests' hooks, so the PostgreSQL databases it created are
// dropped here (the check drops any left over, by name, after each part).
import type { TestEvent } from 'node:test/reporters';

export default async function* firstFailure(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    yield `failed: ${event.data.name}\n`;
    const { dropUndroppedDatabases } = await import('../../server/test/postgres-server.ts');
    // The tests' own connections, cut by the drop, may report errors: the mutant is killed either way.
    await dropUndroppedDatabases().catch(() => {});
    process.exit(1);
  }
}
