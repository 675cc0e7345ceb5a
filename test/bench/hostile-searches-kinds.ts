// The worst searches of the catalogue-scale bench's hostile case: one-letter
// words, many words, common prefixes, FTS5 syntax, long words, deep pages and
// the widest place, each kind's i-th request different from the others
// (words permuted, pages moved) so that none is answered from the cache.
/** A repeatable permutation of words, the i-th. */
const permuted = (words: readonly string[], i: number) =>
  words
    .map((w, k) => ({ w, key: (k * 7919 + i * 104_729) % 1009 }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.w);
const BROAD = ['de', 'la', 'le', 'et', 'en', 'co', 'pr', 're', 'po', 'un'] as const;
const letters = 'abcdefghijklmnopqrstuvwxyz';
const longWord = (i: number, k: number) =>
  Array.from({ length: 39 }, (_, n) => letters[(i * 31 + k * 17 + n * 7) % 26]).join('');
const q = (text: string) => `q=${encodeURIComponent(text)}`;

/** Each kind of hostile search: its label, and its i-th request. */
export const HOSTILE: [string, (i: number) => string][] = [
  ['ten one-letter words', (i) => q(permuted([...'aeioudlpst'], i).join(' '))],
  ['ten common two-letter prefixes', (i) => q(permuted(BROAD, i).join(' '))],
  ['one common prefix, ranked, pages 1 to 20', (i) => `${q(BROAD[i % BROAD.length]!)}&page=${1 + i}`],
  [
    'five common prefixes, newest first, deep pages',
    (i) => `${q(permuted(BROAD, i).slice(0, 5).join(' '))}&sort=date&per_page=50&page=${400 + i}`,
  ],
  [
    'FTS5 syntax: quotes, stars, OR, NEAR, columns',
    (i) => q(permuted(['"de"*', 'OR', 'NEAR(co', 'pr,', '2)', '-re', 'title:en', '^po', '{body}:la'], i).join(' ')),
  ],
  ['five 39-letter words', (i) => q(Array.from({ length: 5 }, (_, k) => longWord(i, k)).join(' '))],
  [
    'near, 500 km, by distance, a common prefix',
    (i) => `near=46.5,2.5&radius_km=500&sort=distance&${q(BROAD[i % BROAD.length]!)}&page=${1 + i}`,
  ],
  [
    'near, 500 km, by distance, deep pages',
    (i) => `near=46.5,2.5&radius_km=500&sort=distance&per_page=50&page=${300 + i}`,
  ],
];
/** The costliest kinds, sent without pause by the parallel clients. */
export const WORST = [1, 3, 6];
