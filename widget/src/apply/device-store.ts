// What the apply form keeps in the board origin's IndexedDB, in this browser
// only: the candidate's details for quick apply (contact fields, links and
// the last resume, only when they tick "Remember me on this device", for 30
// days from the last application sent so) and the resume of each offer's
// draft (for a reload or a failed send; the draft's text is in
// sessionStorage). Two databases, so that none exists for quick apply
// without the opt-in, and the draft's one is deleted once it holds nothing.
// Loaded with the form, in a module of its own: the offers never need it.
// Every failure (storage disabled, private mode, quota) reads as nothing
// kept: keeping is a convenience, not a promise.

const DAY = 86_400_000;
/** Days the candidate's details are kept after their last application sent with "Remember me". */
export const PROFILE_DAYS = 30;
/** A draft's resume is read again only in the tab (session) that chose it, and for a day at most. */
export const DRAFT_RESUME_DAYS = 1;

export const PROFILE_DATABASE = 'jobboard-quick-apply';
export const DRAFT_DATABASE = 'jobboard-draft';
const STORE = 'kept';
const PROFILE_KEY = 'profile';

/** The candidate's kept details: the contact fields and links by control id, and the last resume. */
export interface Profile {
  values: Record<string, string>;
  resume: File | null;
  /** When it was last saved (ms since the epoch). */
  saved: number;
}

interface DraftResume {
  file: File;
  session: string;
  saved: number;
}

function settled<T>(request: IDBRequest<T> | IDBOpenDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result as T);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

/**
 * Opens a database; with `create` false, one that does not exist yet stays
 * so (its creation is aborted) and null is answered.
 */
async function open(name: string, create: boolean): Promise<IDBDatabase | null> {
  const request = indexedDB.open(name, 1);
  request.onupgradeneeded = () => {
    if (create) request.result.createObjectStore(STORE);
    else request.transaction!.abort();
  };
  try {
    return await settled<IDBDatabase>(request);
  } catch (error) {
    if (!create) return null;
    throw error;
  }
}

/** Runs `work` on the store of the database `name`, then closes it (an open connection would hold a deletion back). */
async function use<T>(
  name: string,
  create: boolean,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T | undefined> {
  const db = await open(name, create);
  if (!db) return undefined;
  try {
    return await settled(work(db.transaction(STORE, 'readwrite').objectStore(STORE)));
  } finally {
    db.close();
  }
}

async function remove(name: string): Promise<void> {
  await settled(indexedDB.deleteDatabase(name));
}

/** Runs `task`, answering `fallback` if storage fails. */
async function safely<T>(task: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await task();
  } catch {
    return fallback;
  }
}

/** The kept details, or null: none kept, or kept more than 30 days ago (then erased). Creates nothing. */
export function readProfile(now = Date.now()): Promise<Profile | null> {
  return safely(async () => {
    const profile = (await use(PROFILE_DATABASE, false, (s) => s.get(PROFILE_KEY))) as Profile | undefined;
    if (!profile) return null;
    if (now - profile.saved > PROFILE_DAYS * DAY) {
      await remove(PROFILE_DATABASE);
      return null;
    }
    return profile;
  }, null);
}

/** Keeps the candidate's details for 30 days from `now`. */
export function saveProfile(values: Record<string, string>, resume: File | null, now = Date.now()): Promise<void> {
  const profile: Profile = { values, resume, saved: now };
  return safely(async () => void (await use(PROFILE_DATABASE, true, (s) => s.put(profile, PROFILE_KEY))), undefined);
}

/** Erases the kept details (the database goes). */
export function forgetProfile(): Promise<void> {
  return safely(() => remove(PROFILE_DATABASE), undefined);
}

/** The resume of a draft (`key`: its endpoint and offer) chosen in this `session`, less than a day ago; others are erased. */
export function readDraftResume(key: string, session: string, now = Date.now()): Promise<File | null> {
  return safely(async () => {
    const kept = (await use(DRAFT_DATABASE, false, (s) => s.get(key))) as DraftResume | undefined;
    if (!kept) return null;
    if (kept.session === session && now - kept.saved <= DRAFT_RESUME_DAYS * DAY) return kept.file;
    await saveDraftResume(key, null, session);
    return null;
  }, null);
}

/** Keeps the resume of a draft, or with null lets it go (and the database once it holds no other). */
export function saveDraftResume(key: string, file: File | null, session: string, now = Date.now()): Promise<void> {
  return safely(async () => {
    if (file) {
      const kept: DraftResume = { file, session, saved: now };
      await use(DRAFT_DATABASE, true, (s) => s.put(kept, key));
      return;
    }
    await use(DRAFT_DATABASE, false, (s) => s.delete(key));
    if ((await use(DRAFT_DATABASE, false, (s) => s.count())) === 0) await remove(DRAFT_DATABASE);
  }, undefined);
}

/** "Forget": erases everything the form keeps in IndexedDB, both databases. */
export function forgetAll(): Promise<void> {
  return safely(async () => void (await Promise.all([remove(PROFILE_DATABASE), remove(DRAFT_DATABASE)])), undefined);
}
