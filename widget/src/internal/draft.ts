// The candidate's typed text, kept in sessionStorage per campaign until the
// application succeeds, so a reload loses nothing. The draft's resume is in
// IndexedDB (apply/device-store.ts), tied to this session's mark.
import { uuid } from './uuid.ts';

export type Draft = Record<string, string>;

const PREFIX = 'jobboard-draft:';

function key(endpoint: string, campaignId: number): string {
  return `${PREFIX}${endpoint}:${campaignId}`;
}

/**
 * This session's mark (a random id in sessionStorage, which lives as long as
 * the tab): a draft's resume is read again only by the session that chose it.
 */
export function draftSession(): string {
  try {
    let mark = sessionStorage.getItem(`${PREFIX}session`);
    if (!mark) sessionStorage.setItem(`${PREFIX}session`, (mark = uuid()));
    return mark;
  } catch {
    // Storage disabled: no session to find the resume again.
    return '';
  }
}

export function loadDraft(endpoint: string, campaignId: number): Draft {
  try {
    const raw = sessionStorage.getItem(key(endpoint, campaignId));
    const value: unknown = raw ? JSON.parse(raw) : null;
    return value && typeof value === 'object' ? (value as Draft) : {};
  } catch {
    // Storage disabled (privacy mode, sandboxed iframe) or a corrupt entry.
    return {};
  }
}

export function saveDraft(endpoint: string, campaignId: number, draft: Draft): void {
  try {
    sessionStorage.setItem(key(endpoint, campaignId), JSON.stringify(draft));
  } catch {
    // Quota or storage disabled: the draft is a convenience, not a promise.
  }
}

export function clearDraft(endpoint: string, campaignId: number): void {
  try {
    sessionStorage.removeItem(key(endpoint, campaignId));
  } catch {
    // See saveDraft.
  }
}

/** "Forget": every draft of this session, of every offer. */
export function clearAllDrafts(): void {
  try {
    // Backwards, as removing a key moves the ones after it.
    for (let i = sessionStorage.length - 1; i >= 0; i -= 1) {
      const name = sessionStorage.key(i);
      if (name?.startsWith(PREFIX)) sessionStorage.removeItem(name);
    }
  } catch {
    // See saveDraft.
  }
}
