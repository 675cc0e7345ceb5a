// A node:test reporter for the mutation check: the first failing test ends
// the run, since one failure already kills the mutant and the rest of the
// command's tests would only cost time. Prints that failure's name.
import type { TestEvent } from 'node:test/reporters';

export default async function* firstFailure(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    yield `failed: ${event.data.name}\n`;
    process.exit(1);
  }
}
