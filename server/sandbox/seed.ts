// The demo world (--seed demo, POST /_sandbox/reset {"seed":"demo"}): two
// companies (one with the Entity option), channels including the job-board
// channel jobboard_demo, campaigns in every status with HTML descriptions in
// French and English, applicants and applications with status history, and
// fixed key pairs so a demo proxy can be configured without reading output.
import type { SandboxContext } from './context.ts';
import { CITY_POSITIONS, OFFERS, describe, profileOf } from './demo-offers.ts';
import type { Offer } from './demo-offers.ts';
import { createChannel, createApiClient, createCompany, createEntity, createPool, patchCampaign } from './setup.ts';
import type { Company } from './setup.ts';
import { isRecordedInHistory } from './status.ts';

export interface DemoKeys {
  jobboard: { private_key: string; secret_key: string; channel: string };
  company: { private_key: string; secret_key: string; company_id: number };
}

/** Deterministic demo key pairs (the seed always creates them with these values). */
export const DEMO_KEYS: DemoKeys = {
  jobboard: {
    private_key: '7d3f9a2e-4b1c-4e8a-9f60-2c5d8b1a7e34',
    secret_key: 'demo-jobboard-secret-5f8e2a9c4b7d1e63',
    channel: 'jobboard_demo',
  },
  company: {
    private_key: '1a6c8e0f-3d5b-4f7a-8c2e-9b4d6f1a3c58',
    secret_key: 'demo-company-secret-8b3e6d1f9a4c2e75',
    company_id: 1,
  },
};

/** Extra demo key pair of the second company (the one with the Entity option). */
export const DEMO_ENTITY_COMPANY_KEYS = {
  private_key: '5e2b7d9f-8a1c-4b3e-a6d4-0f9c2e7b5a13',
  secret_key: 'demo-entity-company-secret-2c7f9e4a',
  company_id: 2,
};

/** A small deterministic PRNG (mulberry32), so every seeded sandbox is the same. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST_NAMES = [
  'Camille',
  'Léa',
  'Hugo',
  'Inès',
  'Lucas',
  'Chloé',
  'Nathan',
  'Sofia',
  'Mathis',
  'Emma',
  'Yanis',
  'Jade',
  'Noah',
  'Lina',
  'Adam',
  'Zoé',
  'Pablo',
  'Lucía',
  'Oliver',
  'Amelia',
];
const LAST_NAMES = [
  'Martin',
  'Bernard',
  'Dubois',
  'Thomas',
  'Robert',
  'Richard',
  'Petit',
  'Durand',
  'Leroy',
  'Moreau',
  'García',
  'Fernández',
  'Smith',
  'Jones',
];
/** Application statuses used by the demo managers (the spec lists none). */
const STATUS_PATH = ['new', 'reviewed', 'interview', 'offer', 'hired'];

/** Seeds the demo world into an empty sandbox and returns the demo keys. */
export function seedDemo(ctx: SandboxContext): DemoKeys {
  const { db, clock } = ctx;
  const random = prng(20_210_506);
  const nowMs = clock.now().getTime();
  const daysAgo = (days: number) => new Date(nowMs - days * 86_400_000).toISOString();

  return db.transaction(() => {
    const { acme, globex, pools, units } = seedCompanies(ctx);
    const campaigns = seedCampaigns(ctx, [acme, globex], units, nowMs, daysAgo);
    seedApplicants(ctx, { acme, globex, pools, campaigns }, random, daysAgo);
    // One application from before 2021-05-06: its status is known, its history is not (API rules: States).
    const old = '2021-03-01T09:00:00.000Z';
    const oldApplicant = db.insert(
      `INSERT INTO applicants (company_id, email, first_name, last_name, locale, is_legals_accepted_by_manager, created_at, updated_at)
       VALUES (?, 'early.bird@example.com', 'Early', 'Bird', 'en', 1, ?, ?)`,
      acme.id,
      old,
      old,
    );
    db.insert(
      `INSERT INTO applications (company_id, campaign_id, applicant_id, source, status, status_changed_at, is_complete, created_at, updated_at)
       VALUES (?, ?, ?, 'carriere', 'hired', ?, 1, ?, ?)`,
      acme.id,
      campaigns[0]!.id,
      oldApplicant,
      '2021-04-01T09:00:00.000Z',
      old,
      old,
    );
    return DEMO_KEYS;
  });
}

type DaysAgo = (days: number) => string;
type Unit = ReturnType<typeof createEntity>['units'][number];
interface SeededCampaign {
  id: number;
  companyId: number;
  status: string;
  offer: Offer;
}

/** The two companies, their API clients, channels, entities and pools. */
function seedCompanies(ctx: SandboxContext) {
  const acme = createCompany(ctx, {
    name: 'Acme Conseil',
    skills_option: true,
    sources: ['carriere', 'jobboard_demo', 'linkedin', 'referral'],
  });
  const globex = createCompany(ctx, {
    name: 'Globex Industries',
    entity_option: true,
    sources: ['carriere', 'jobboard_demo'],
    restricted_tags: ['priority', 'remote', 'junior', 'senior'],
  });
  createApiClient(ctx, { company_id: acme.id, ...pick(DEMO_KEYS.company) });
  createApiClient(ctx, { company_id: globex.id, ...pick(DEMO_ENTITY_COMPANY_KEYS) });
  createApiClient(ctx, { channel: DEMO_KEYS.jobboard.channel, ...pick(DEMO_KEYS.jobboard) });

  for (const [value, name] of [
    ['career_fr', 'Site carrière (fr)'],
    ['career_en', 'Careers site (en)'],
    ['jobboard_demo', 'Demo job board'],
  ] as const) {
    createChannel(ctx, { company_id: acme.id, value, name });
  }
  const france = createEntity(ctx, { company_id: globex.id, name: 'Globex France', units: ['Paris', 'Lyon'] });
  const spain = createEntity(ctx, { company_id: globex.id, name: 'Globex España', units: ['Madrid'] });
  createChannel(ctx, { company_id: globex.id, value: 'jobboard_demo', name: 'Demo job board' });
  createChannel(ctx, {
    company_id: globex.id,
    value: 'career_fr',
    name: 'Carrières Globex France',
    entity_id: france.id,
  });
  createChannel(ctx, {
    company_id: globex.id,
    value: 'career_es',
    name: 'Empleo Globex España',
    entity_id: spain.id,
  });
  const pools = [
    createPool(ctx, { company_id: acme.id, name: 'Vivier tech' }),
    createPool(ctx, { company_id: acme.id, name: 'Anciens stagiaires' }),
  ];
  createPool(ctx, { company_id: globex.id, name: 'Talents industrie' });
  const units = [...france.units, ...spain.units];
  return { acme, globex, pools, units };
}

/** 24 campaigns: each offer once per company, statuses cycling so every status appears. */
function seedCampaigns(
  ctx: SandboxContext,
  companies: Company[],
  units: Unit[],
  nowMs: number,
  daysAgo: DaysAgo,
): SeededCampaign[] {
  const { db } = ctx;
  const statuses = ['online', 'online', 'online', 'standby', 'draft', 'archived'] as const;
  const campaigns: { id: number; companyId: number; status: string; offer: Offer }[] = [];
  let n = 0;
  for (const company of companies) {
    for (const offer of OFFERS) {
      const status = statuses[n % statuses.length]!;
      const created = daysAgo(90 - n * 3);
      const unit = company.entity_option ? units[n % units.length]! : undefined;
      const dateEnd = n % 7 === 2 ? new Date(nowMs + 30 * 86_400_000).toISOString().slice(0, 10) : null;
      const id = db.insert(
        `INSERT INTO campaigns (company_id, manage_name, name, description, profile, job_type, contract_duration, job_start_date, date_end,
           working_time, salary_min, salary_max, unit_id, status, address, created_at, updated_at, last_activation_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?, NULL)`,
        company.id,
        `${offer.fr} (${offer.city}) #${n + 1}`,
        offer.locale === 'fr' ? offer.fr : offer.en,
        describe(offer, company.name),
        profileOf(offer),
        offer.job_type,
        offer.job_type === 'Fixed term contract' || offer.job_type === 'Interim Contract' ? 6 + (n % 12) : null,
        new Date(nowMs + (20 + n) * 86_400_000).toISOString().slice(0, 10),
        dateEnd,
        offer.working_time,
        offer.salary?.[0] ?? null,
        offer.salary?.[1] ?? null,
        unit?.id ?? null,
        JSON.stringify({
          city: offer.city,
          country: offer.country,
          postal_code: offer.postal_code,
          name: `${offer.city}, ${offer.country}`,
          ...CITY_POSITIONS[offer.city],
        }),
        created,
        created,
      );
      const channels = [offer.locale === 'fr' ? 'career_fr' : company.entity_option ? 'career_es' : 'career_en'];
      // Most open campaigns are on the demo board; a few are not, and some closed ones are, to show the filtering.
      if (n % 5 !== 4) channels.push('jobboard_demo');
      patchCampaign(ctx, id, { channels, tags: n % 3 === 0 ? ['remote'] : n % 3 === 1 ? ['priority'] : [] });
      if (status !== 'draft') {
        db.run("UPDATE campaigns SET status = 'online', last_activation_at = ? WHERE id = ?", daysAgo(88 - n * 3), id);
        if (status !== 'online') db.run('UPDATE campaigns SET status = ? WHERE id = ?', status, id);
      }
      db.run('UPDATE campaigns SET updated_at = ? WHERE id = ?', daysAgo(80 - n * 3), id);
      campaigns.push({ id, companyId: company.id, status, offer });
      n++;
    }
  }
  return campaigns;
}

/** 40 applicants, each with one to three applications, with status history. */
function seedApplicants(
  ctx: SandboxContext,
  seeded: { acme: Company; globex: Company; pools: { id: number }[]; campaigns: SeededCampaign[] },
  random: () => number,
  daysAgo: DaysAgo,
): void {
  const { db } = ctx;
  const { acme, globex, pools, campaigns } = seeded;
  for (let i = 0; i < 40; i++) {
    const company = i % 4 === 3 ? globex : acme;
    const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
    const last = LAST_NAMES[(i * 7) % LAST_NAMES.length]!;
    const email = `${first}.${last}.${i}@example.com`
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '');
    const created = daysAgo(60 - i);
    const applicantId = db.insert(
      `INSERT INTO applicants (company_id, email, first_name, last_name, locale, phone_code, phone_number, iso_country,
         is_partner_newsletter_active, is_campaign_alert_active, is_legals_accepted_by_manager, address, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, '+33', ?, 'FR', ?, ?, 1, ?, ?, ?)`,
      company.id,
      email,
      first,
      last,
      i % 3 === 0 ? 'en' : 'fr',
      `6 ${String(10 + i).padStart(2, '0')} 20 30 ${String(40 + i).padStart(2, '0')}`,
      i % 2,
      i % 3 === 0 ? 1 : 0,
      JSON.stringify({ city: 'Paris', country: 'France', iso_country: 'FR', zipcode: '75011' }),
      created,
      created,
    );
    if (company === acme && i % 5 === 0)
      db.run('INSERT INTO applicant_pools (applicant_id, pool_id) VALUES (?, ?)', applicantId, pools[i % 2]!.id);
    const open = campaigns.filter((c) => c.companyId === company.id && c.status !== 'draft');
    const count = 1 + Math.floor(random() * 3);
    const chosen = new Set<number>();
    for (let k = 0; k < count; k++) chosen.add(open[Math.floor(random() * open.length)]!.id);
    for (const campaignId of chosen) {
      const appCreated = new Date(Date.parse(created) + k1(random) * 3_600_000).toISOString();
      const steps = 1 + Math.floor(random() * STATUS_PATH.length);
      const rejected = steps > 1 && random() < 0.25;
      const history = STATUS_PATH.slice(0, steps);
      if (rejected) history[history.length - 1] = 'rejected';
      const source = ['carriere', 'jobboard_demo', 'linkedin'][Math.floor(random() * 3)]!;
      const allowedSource = company === globex && source === 'linkedin' ? 'carriere' : source;
      const appId = db.insert(
        `INSERT INTO applications (company_id, campaign_id, applicant_id, source, status, status_changed_at, is_complete, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        company.id,
        campaignId,
        applicantId,
        allowedSource,
        history.at(-1)!,
        appCreated,
        random() < 0.5 ? 1 : 0,
        appCreated,
        appCreated,
      );
      let at = Date.parse(appCreated);
      for (const value of history) {
        const iso = new Date(at).toISOString();
        if (isRecordedInHistory(iso))
          db.run('INSERT INTO status_changes (application_id, value, changed_at) VALUES (?, ?, ?)', appId, value, iso);
        db.run('UPDATE applications SET status_changed_at = ?, updated_at = ? WHERE id = ?', iso, iso, appId);
        at += (1 + Math.floor(random() * 4)) * 86_400_000;
      }
      if (random() < 0.4) db.run("INSERT INTO application_tags (application_id, name) VALUES (?, 'priority')", appId);
      if (random() < 0.3) {
        db.run(
          'INSERT INTO comments (application_id, content, created_at) VALUES (?, ?, ?)',
          appId,
          'Profil intéressant, à rappeler.',
          appCreated,
        );
      }
    }
  }
}

function k1(random: () => number): number {
  return 1 + Math.floor(random() * 48);
}

function pick(keys: { private_key: string; secret_key: string }): { private_key: string; secret_key: string } {
  return { private_key: keys.private_key, secret_key: keys.secret_key };
}

/** The demo's offers and texts, for the bulk seed of scale tests (bulk-seed.ts). */
export { OFFERS as DEMO_OFFERS, describe as describeOffer, profileOf as offerProfile } from './demo-offers.ts';
export type { Offer } from './demo-offers.ts';
