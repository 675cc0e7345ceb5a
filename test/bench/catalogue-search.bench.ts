// The catalogue store's search at 50,000 offers: the time of one search
// (the store itself, under the reader's cache: what the first visitor of a
// new query waits), median and p99, by kind of query: full text, near a
// point or a city, salary, orders and their mixes.
import { performance } from 'node:perf_hooks';
import { toCatalogueCampaign } from '../../server/proxy/catalogue/catalogue.ts';
import { cityInFrance, upstreamCampaign } from '../../server/proxy/catalogue/fixtures.test-support.ts';
import type { CampaignFilters } from '../../server/proxy/catalogue/types.ts';
import { openCatalogueStore } from '../../server/proxy/storage/catalogue/catalogue-sqlite.ts';
import { seededRandom } from '../../server/test/seeded-random.ts';

const OFFERS = Number(process.env.BENCH_SEARCH_OFFERS ?? 50_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 300);

const CITIES: [string, number, number][] = [
  ['Paris', 48.8566, 2.3522],
  ['Lyon', 45.764, 4.8357],
  ['Marseille', 43.2965, 5.3698],
  ['Toulouse', 43.6047, 1.4442],
  ['Nice', 43.7102, 7.262],
  ['Nantes', 47.2184, -1.5536],
  ['Strasbourg', 48.5734, 7.7521],
  ['Montpellier', 43.6108, 3.8767],
  ['Bordeaux', 44.8378, -0.5792],
  ['Lille', 50.6292, 3.0573],
  ['Rennes', 48.1173, -1.6778],
  ['Reims', 49.2583, 4.0317],
  ['Saint-Étienne', 45.4397, 4.3872],
  ['Grenoble', 45.1885, 5.7245],
  ['Dijon', 47.322, 5.0415],
  ['Angers', 47.4784, -0.5632],
  ['Nîmes', 43.8367, 4.3601],
  ['Villeurbanne', 45.7719, 4.8902],
  ['Clermont-Ferrand', 45.7772, 3.087],
  ['Le Havre', 49.4944, 0.1079],
];
const TITLES = [
  'Développeur',
  'Infirmier',
  'Comptable',
  'Chauffeur',
  'Designer',
  'Technicien',
  'Commercial',
  'Ingénieur',
  'Assistant',
  'Responsable',
  'Vendeur',
  'Cuisinier',
];
const SPECIALTIES = [
  'backend',
  'frontend',
  'logistique',
  'qualité',
  'paie',
  'maintenance',
  'réseau',
  'export',
  'données',
  'sécurité',
  'nuit',
  'atelier',
];
const COMPANIES = Array.from({ length: 400 }, (_, i) => `Entreprise ${i} ${SPECIALTIES[i % SPECIALTIES.length]}`);
const WORDS =
  'nous recherchons une personne motivée pour rejoindre notre équipe projet client service qualité production terrain bureau horaires formation évolution'.split(
    ' ',
  );

export function catalogue(count: number) {
  const next = seededRandom(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const [city, lat, lon] = pick(CITIES);
    const located = next() < 0.8;
    const paid = next() < 0.7;
    const min = 20_000 + Math.floor(next() * 40) * 1000;
    return toCatalogueCampaign(
      upstreamCampaign({
        id: i + 1,
        company_id: (i % COMPANIES.length) + 1,
        company_name: COMPANIES[i % COMPANIES.length]!,
        name: `${pick(TITLES)} ${pick(SPECIALTIES)}`,
        description: `<p>${Array.from({ length: 60 }, () => pick(WORDS)).join(' ')}</p>`,
        salary_min: paid ? min : null,
        salary_max: paid ? min + 8000 : null,
        last_activation_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        address: cityInFrance(
          city,
          located ? { lat: lat + (next() - 0.5) * 0.3, lon: lon + (next() - 0.5) * 0.3 } : null,
        ),
      }),
    );
  });
}

export const QUERIES: [string, Omit<CampaignFilters, 'page' | 'per_page'>][] = [
  ['no filter, newest first', {}],
  ['q: a common word ("dev", prefix)', { q: 'dev' }],
  ['q: two words', { q: 'ingenieur qualite' }],
  ['q: a common word, sort=date', { q: 'equipe', sort: 'date' }],
  ['near a point, 25 km', { near: { lat: 45.764, lon: 4.8357 } }],
  ['near a point, 100 km, sort=distance', { near: { lat: 45.764, lon: 4.8357 }, radius_km: 100, sort: 'distance' }],
  ['salary_min', { salary_min: 50_000 }],
  [
    'q + near + salary_min',
    { q: 'technicien', near: { lat: 48.8566, lon: 2.3522 }, radius_km: 50, salary_min: 30_000 },
  ],
];

const ms = (v: number) => `${v.toFixed(2)} ms`;

export default async function bench(): Promise<string> {
  const store = openCatalogueStore(':memory:');
  const started = performance.now();
  store.replaceAll(catalogue(OFFERS), new Date());
  const loadMs = performance.now() - started;
  const rows: string[] = [];
  for (const [label, filters] of QUERIES) {
    const times: number[] = [];
    let total = 0;
    const cpu = process.cpuUsage();
    for (let run = 0; run < RUNS; run++) {
      const page = 1 + (run % 5);
      const t = performance.now();
      total = store.search({ ...filters, page, per_page: 20 }).total;
      times.push(performance.now() - t);
    }
    const { user, system } = process.cpuUsage(cpu);
    times.sort((a, b) => a - b);
    rows.push(
      `| ${label} | ${total} | ${ms(times[Math.floor(times.length / 2)]!)} | ${ms(times[Math.ceil(times.length * 0.99) - 1]!)} | ${ms((user + system) / 1000 / RUNS)} |`,
    );
  }
  const placeTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const t = performance.now();
    store.placeOf(CITIES[run % CITIES.length]![0]);
    placeTimes.push(performance.now() - t);
  }
  placeTimes.sort((a, b) => a - b);
  store.close();
  await Promise.resolve();
  return [
    '## Catalogue search at 50,000 offers',
    '',
    `The store's search alone (the reader caches each answer until the catalogue changes), ${OFFERS} offers (80 % with coordinates, 70 % with a salary), ${RUNS} searches per kind over pages 1 to 5 (the CPU time tells a machine's other load apart from the search's); loading them took ${Math.round(loadMs)} ms. A city named by near costs a lookup of its position first: median ${ms(placeTimes[Math.floor(RUNS / 2)]!)}, p99 ${ms(placeTimes[Math.ceil(RUNS * 0.99) - 1]!)}.`,
    '',
    '| search | matches | median | p99 | CPU per search (mean) |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await bench());
