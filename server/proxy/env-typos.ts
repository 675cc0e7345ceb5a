// Variables that look like the proxy's but are not: a typo (ALLOWED_ORIGIN
// for ALLOWED_ORIGINS) is otherwise silently ignored, and its setting lost.

/**
 * Edit distance counting a swap of two neighbours as one edit (optimal string
 * alignment): SECERT is one edit from SECRET.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name `name` is likely a typo of, or undefined. Close means: the
 * same name in another case, or one edit away (two for names of 10
 * characters or more). Short names get one edit only, so that HOME, always
 * set, is not taken for HOST.
 */
export function likelyMeant(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  const upper = name.toUpperCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(upper, candidate);
    const allowed = candidate.length >= 10 ? 2 : 1;
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** One problem line per likely typo among `names`. */
export function typoProblems(names: readonly string[], known: readonly string[]): string[] {
  const problems: string[] = [];
  for (const name of names) {
    const meant = likelyMeant(name, known);
    if (meant === undefined) continue;
    problems.push(
      `${name} is not a variable of the proxy; did you mean ${meant}? A likely typo stops the start (its setting would be ignored): rename it, or unset it.`,
    );
  }
  return problems;
}
