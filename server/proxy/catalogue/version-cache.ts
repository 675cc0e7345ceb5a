// Answers built once per catalogue version: a change to the catalogue (a sync
// that brings one) drops them all, so none is ever served stale.

/**
 * A cache of answers by key, emptied when `version()` changes; at most `max`
 * of them, the oldest dropped first: arbitrary query strings must not grow
 * memory without end. An answer still being built (a promise) is shared by
 * the requests that ask meanwhile, and forgotten if it fails.
 */
export function versionCache<T>(version: () => number, max: number): (key: string, build: () => T) => T {
  let builtFor: number | undefined;
  const answers = new Map<string, T>();
  return (key, build) => {
    const current = version();
    if (current !== builtFor) {
      answers.clear();
      builtFor = current;
    }
    const known = answers.get(key);
    if (known !== undefined) return known;
    const answer = build();
    if (answers.size >= max) answers.delete(answers.keys().next().value as string);
    answers.set(key, answer);
    if (answer instanceof Promise) {
      answer.catch(() => {
        if (answers.get(key) === answer) answers.delete(key);
      });
    }
    return answer;
  };
}
