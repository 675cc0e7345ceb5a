// What the apply form keeps on the candidate's device, through quick apply's
// module (IndexedDB): the draft's resume of each offer and, with the
// candidate's opt-in, their details for the next offers. Changes are made one
// after the other, and a read waits for those under way.
import { draftSession } from '../internal/draft.ts';
import type { Draft } from '../internal/draft.ts';
import type * as QuickApply from './quick-apply.ts';
import type { Profile } from './device-store.ts';

/** Quick apply and what the form keeps in IndexedDB: a module of its own, loaded with the form. */
export type Store = typeof QuickApply;
/** The kept details and the draft's resume, as read when the form loads. */
export type Kept = [profile?: Profile | null, resume?: File | null];

/** What of the element the keeping reads: its offer and what the board turned off. */
export interface KeepingHost {
  endpoint: string;
  campaignId: number;
  noDraft: boolean;
  noQuickApply: boolean;
}

export class DeviceKeeping {
  /** Quick apply's module once loaded for the form (null: it could not load, or is not loaded yet). */
  kit: Store | null = null;
  private readonly host: KeepingHost;
  private readonly store: () => Promise<Store>;
  /** The last change to what is kept, which a read waits for. */
  private keeping: Promise<unknown> = Promise.resolve();

  constructor(host: KeepingHost, store: () => Promise<Store>) {
    this.host = host;
    this.store = store;
  }

  /** The kept details and this draft's resume, once any change under way is kept; none when the board turned both off. */
  async read(): Promise<Kept> {
    const { noQuickApply, noDraft } = this.host;
    if (noQuickApply && noDraft) return [];
    await this.keeping;
    const store = (this.kit = await this.store().catch(() => null));
    return Promise.all([
      noQuickApply ? null : store?.readProfile(),
      noDraft ? null : store?.readDraftResume(this.draftKey(), draftSession()),
    ]);
  }

  /** Changes what is kept on the device, one change after the other; a module that cannot load keeps nothing. */
  keep(change: (store: Store) => Promise<void>): Promise<unknown> {
    return (this.keeping = this.keeping.then(async () => change(await this.store())).catch(() => {}));
  }

  /** Keeps the resume chosen for this offer's draft, or with null lets it go; with no-draft, nothing. */
  keepDraftResume(resume: File | null): void {
    if (this.host.noDraft) return;
    // Read now: the offer or the session may change before the change is made.
    const key = this.draftKey();
    const session = draftSession();
    void this.keep((s) => s.saveDraftResume(key, resume, session));
  }

  /**
   * After a success: the draft's resume goes; with "Remember me" ticked
   * (`remember`), the details and resume sent are kept (30 days from now);
   * unticked, any kept before (`hadProfile`) are forgotten. Answers the
   * details now kept, or null.
   */
  afterSuccess(values: Draft, resume: File | null, remember: boolean, hadProfile: boolean): Profile | null {
    const profile = remember ? { values, resume, saved: Date.now() } : null;
    this.keepDraftResume(null);
    if (profile) void this.keep((s) => s.saveProfile(values, profile.resume));
    else if (hadProfile) void this.keep((s) => s.forgetProfile());
    return profile;
  }

  private draftKey(): string {
    return `${this.host.endpoint} ${this.host.campaignId}`;
  }
}
