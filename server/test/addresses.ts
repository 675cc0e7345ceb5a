// An offer's address for the tests, in Node and in the widget's browser tests
// alike: nothing of Node here, and the contract's type only.
import type { CampaignAddress } from '../contract/index.ts';

/** An upstream address with only `fields` set, every other field null. */
export function addressOf(fields: Partial<CampaignAddress>): CampaignAddress {
  return {
    latitude: null,
    longitude: null,
    street_number: null,
    street: null,
    postal_code: null,
    city: null,
    country: null,
    name: null,
    ...fields,
  };
}
