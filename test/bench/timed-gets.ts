// Child process of the catalogue-scale bench: times GET requests one at a
// time and prints their durations (ms) as one JSON line. In a process of its
// own, so that the sandbox, which answers the proxy's sync in the bench's
// process, does not hold the clock's reading of an answer: the times are
// the proxy's alone. argv: the base URL, the rounds, then the query strings
// (each asked once first, untimed: the warm-up).
const [base, roundsArg, ...queries] = process.argv.slice(2);
const rounds = Number(roundsArg);
if (base === undefined || !(rounds > 0) || queries.length === 0)
  throw new Error('usage: timed-gets.ts BASE_URL ROUNDS QUERY...');

const get = async (query: string) => {
  const response = await fetch(`${base}?${query}`);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${base}?${query} answered ${response.status}`);
};

for (const query of queries) await get(query);
const times: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const query of queries) {
    const started = performance.now();
    await get(query);
    times.push(performance.now() - started);
  }
}
console.log(JSON.stringify(times));
