// Many broadcast offers at once, for scale tests and benchmarks: one company,
// one job-board API client and its channel, and `count` online campaigns
// broadcast on it (the demo's offers, varied), written in one transaction
// with direct inserts: 50,000 take seconds, not the hours of as many API calls.
import { randomUUID } from 'node:crypto';
import type { SandboxContext } from './context.ts';
import { DEMO_OFFERS, describeOffer, offerProfile } from './seed.ts';
import { createApiClient, createChannel, createCompany } from './setup.ts';

export interface BulkSeedOptions {
  count: number;
  /** The channel the offers are broadcast on, and the job-board client's. */
  channel: string;
  /** Time of the newest offer's activation (default the sandbox clock's now); each older one a minute before. */
  newestAt?: Date;
}

export interface BulkSeed {
  /** The job-board API client's keys (scope campaigns_read on `channel`). */
  keys: { private_key: string; secret_key: string };
  companyId: number;
  channelId: number;
  /** The campaigns' ids, oldest first. */
  ids: number[];
}

const CITIES = [
  'Paris',
  'Lyon',
  'Nantes',
  'Bordeaux',
  'Lille',
  'Toulouse',
  'Marseille',
  'Rennes',
  'Grenoble',
  'Strasbourg',
  'Nice',
  'Montpellier',
  'Dijon',
  'Brest',
];
const LEVELS = ['', 'Junior ', 'Senior ', 'Lead '];

export function seedBroadcastOffers(ctx: SandboxContext, options: BulkSeedOptions): BulkSeed {
  const { db } = ctx;
  const newest = (options.newestAt ?? ctx.clock.now()).getTime();
  return db.transaction(() => {
    const company = createCompany(ctx, {
      name: `Bulk Employer ${randomUUID().slice(0, 8)}`,
      sources: ['carriere', options.channel],
    });
    const channel = createChannel(ctx, { company_id: company.id, value: options.channel, name: options.channel });
    const client = createApiClient(ctx, { channel: options.channel });
    const ids: number[] = [];
    for (let i = 0; i < options.count; i++) {
      const offer = DEMO_OFFERS[i % DEMO_OFFERS.length]!;
      const city = CITIES[(i * 7) % CITIES.length]!;
      const title = `${LEVELS[i % LEVELS.length]}${offer.locale === 'fr' ? offer.fr : offer.en}`;
      const at = new Date(newest - (options.count - 1 - i) * 60_000).toISOString();
      const id = db.insert(
        `INSERT INTO campaigns (company_id, manage_name, name, description, profile, job_type, working_time, salary_min, salary_max, status, address, created_at, updated_at, last_activation_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'online', ?, ?, ?, ?)`,
        company.id,
        `${title} (${city}) #${i + 1}`,
        title,
        describeOffer({ ...offer, city }, company.name),
        offerProfile(offer),
        offer.job_type,
        offer.working_time,
        offer.salary?.[0] ?? null,
        offer.salary?.[1] ?? null,
        JSON.stringify({
          city,
          country: offer.country,
          postal_code: offer.postal_code,
          name: `${city}, ${offer.country}`,
        }),
        at,
        at,
        at,
      );
      db.run('INSERT INTO campaign_channels (campaign_id, channel_id) VALUES (?, ?)', id, channel.id);
      ids.push(id);
    }
    return {
      keys: { private_key: client.private_key, secret_key: client.secret_key },
      companyId: company.id,
      channelId: channel.id,
      ids,
    };
  });
}

/** Broadcasts one more offer on the seed's channel, activated now (what a manager publishing an offer does). */
export function broadcastNewOffer(ctx: SandboxContext, seed: BulkSeed, name: string): number {
  const { db } = ctx;
  const now = ctx.clock.iso();
  return db.transaction(() => {
    const id = db.insert(
      `INSERT INTO campaigns (company_id, manage_name, name, description, job_type, working_time, status, address, created_at, updated_at, last_activation_at)
       VALUES (?, ?, ?, '<p>New.</p>', 'Permanent contract', 'Full time', 'online', ?, ?, ?, ?)`,
      seed.companyId,
      name,
      name,
      JSON.stringify({ city: 'Paris', country: 'France', postal_code: '75011', name: 'Paris, France' }),
      now,
      now,
      now,
    );
    db.run('INSERT INTO campaign_channels (campaign_id, channel_id) VALUES (?, ?)', id, seed.channelId);
    return id;
  });
}
