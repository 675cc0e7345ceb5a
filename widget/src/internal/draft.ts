// The candidate's typed text, kept in sessionStorage per campaign until the
// application succeeds, so a reload loses nothing. Files are never stored.

export type Draft = Record<string, string>;

function key(endpoint: string, campaignId: number): string {
  return `jobboard-draft:${endpoint}:${campaignId}`;
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
