// The offers a candidate saved, kept in the board origin's localStorage, in
// this browser only: no account, no copy on the proxy. Each is kept with what
// the saved view shows while the proxy cannot be reached or the offer has
// closed (its title, company and city), until the candidate removes it or
// clears the site's data. localStorage rather than IndexedDB: a toggle reads
// it synchronously as the list renders. Private mode or storage blocked by
// the browser reads as no store: the toggles are not shown.
import type { CampaignSummary } from '../internal/api.ts';

/** What is kept of a saved offer: the fields the saved view shows, as the proxy names them. */
export type SavedOffer = Pick<CampaignSummary, 'id' | 'name' | 'company_name' | 'city'>;

/** The key prefix, followed by the proxy's endpoint: offers ids are those of one proxy's catalogue. */
export const SAVED_KEY = 'jobboard-saved-offers:';

/** Offers kept, at most: the oldest saved goes first beyond it, so that the entry stays small. */
export const MAX_SAVED = 100;

const text = (value: unknown): value is string | null => value === null || typeof value === 'string';

/** An entry as written by this module; anything else (another version, a page's own writes) is skipped. */
function isSaved(value: unknown): value is SavedOffer {
  const v = value as SavedOffer | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Number.isInteger(v.id) &&
    v.id > 0 &&
    text(v.name) &&
    text(v.company_name) &&
    text(v.city)
  );
}

export class SavedStore {
  private readonly storage: Storage;
  readonly key: string;

  constructor(storage: Storage, endpoint: string) {
    this.storage = storage;
    this.key = SAVED_KEY + endpoint;
  }

  /** The saved offers, the latest saved first; none when the entry is missing or unreadable. */
  list(): SavedOffer[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.storage.getItem(this.key) ?? '[]');
    } catch {
      return [];
    }
    return Array.isArray(parsed) ? parsed.filter(isSaved) : [];
  }

  has(id: number): boolean {
    return this.list().some((o) => o.id === id);
  }

  /** Saves the offer (first), or refreshes what is kept of it in its place; answers false when the browser refused to write. */
  save(offer: SavedOffer): boolean {
    const { id, name, company_name, city } = offer;
    const kept = { id, name, company_name, city };
    // What could not be read back is not written.
    if (!isSaved(kept)) return false;
    const offers = this.list();
    const at = offers.findIndex((o) => o.id === id);
    if (at >= 0) offers[at] = kept;
    else offers.unshift(kept);
    return this.write(offers.slice(0, MAX_SAVED));
  }

  /** Forgets the offer; the entry goes with the last one. */
  remove(id: number): boolean {
    const rest = this.list().filter((o) => o.id !== id);
    if (rest.length > 0) return this.write(rest);
    try {
      this.storage.removeItem(this.key);
      return true;
    } catch {
      return false;
    }
  }

  private write(offers: SavedOffer[]): boolean {
    try {
      this.storage.setItem(this.key, JSON.stringify(offers));
      return true;
    } catch {
      // Quota or storage blocked since the store opened: nothing was kept.
      return false;
    }
  }
}

/**
 * The store of the proxy at `endpoint`, or null when this browser keeps
 * nothing for the page (private mode, storage blocked, or denied to a
 * sandboxed frame): reading `localStorage` then throws, or a write does.
 */
export function openSavedStore(endpoint: string, storage?: () => Storage): SavedStore | null {
  try {
    const s = storage ? storage() : localStorage;
    const probe = `${SAVED_KEY}probe`;
    s.setItem(probe, '1');
    s.removeItem(probe);
    return new SavedStore(s, endpoint);
  } catch {
    return null;
  }
}
