// A candidate on a phone applies twice (test/e2e/phone-apply.ts: 390 × 844,
// touch, French, slow 4G): a first offer with every field and "remember me",
// then a second with quick apply. Times from the offer's page to "received"
// and taps, over fresh phones (a new browser context each round). Target: the
// second application in at most 4 taps and 15 s. Needs `npm run build`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDemoWorld } from '../e2e/demo-world.ts';
import { Phone, applyOnPhone, offerPages } from '../e2e/phone-apply.ts';
import type { Applied } from '../e2e/phone-apply.ts';
import { median } from './stats.ts';
import { pdfOfSize } from '../../server/test/files.ts';

const ROUNDS = Number(process.env.BENCH_PHONE_ROUNDS ?? 5);
const RESUME_BYTES = 200 * 1024;

export default async function bench(): Promise<string> {
  const world = await startDemoWorld('phone-bench');
  const firsts: Applied[] = [];
  const seconds: Applied[] = [];
  try {
    // A resume of a common size: both applications upload it on the throttled network.
    const resume = join(world.dir, 'cv.pdf');
    await writeFile(resume, pdfOfSize(RESUME_BYTES));
    const offers = await offerPages(world.demo.proxy.url, 2 * ROUNDS);
    for (let round = 0; round < ROUNDS; round += 1) {
      const candidate = { email: `phone.${round}@example.org`, firstName: 'Camille', lastName: 'Martin', resume };
      const phone = await Phone.open(world.browser);
      try {
        firsts.push(await applyOnPhone(phone, offers[2 * round]!, candidate, true));
        seconds.push(await applyOnPhone(phone, offers[2 * round + 1]!, candidate, false));
      } finally {
        await phone.close();
      }
    }
  } finally {
    await world.close();
  }
  const row = (name: string, runs: Applied[]) => {
    const ms = median(runs.map((r) => r.ms));
    const taps = runs.map((r) => r.taps);
    return `| ${name} | ${(ms / 1000).toFixed(2)} s | ${Math.max(...taps)} |`;
  };
  const second = median(seconds.map((r) => r.ms));
  const met = second <= 15_000 && seconds.every((r) => r.taps <= 4);
  return [
    '## Phone: applying twice',
    '',
    `\`npm run build && npm run bench -- phone\`: Chromium at 390 × 844 with touch, in French, on slow 4G (150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up), the demo board; ${ROUNDS} fresh phones (\`BENCH_PHONE_ROUNDS\`), each applying to one offer with every field and "remember me", then to a second with quick apply, a ${RESUME_BYTES / 1024} KB PDF resume each time. Time from opening the offer's page to "received"; taps on the page (typing aside).`,
    '',
    '| application | median time | taps (most) |',
    '|---|---:|---:|',
    row('first (every field, remember me)', firsts),
    row('second (quick apply)', seconds),
    '',
    `Target: the second in at most 4 taps and 15 s: ${met ? 'met' : 'not met'} (${(second / 1000).toFixed(2)} s, ${(second / median(firsts.map((r) => r.ms))).toFixed(2)}× the first).`,
  ].join('\n');
}
