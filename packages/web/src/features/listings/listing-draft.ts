import type { ListingFormValues } from './listing-form-values';

/** What a create form keeps across a reload or a crashed tab. */
export interface ListingDraft {
  values: ListingFormValues;
  /** The form session's Idempotency-Key: a create that went through before the reload is not repeated. */
  idempotencyKey: string;
}

const draftKey = (userId: string) => `campus-books:listing-draft:${userId}`;

/** The user's saved draft, or null (nothing saved, storage unavailable or unreadable). */
export function readListingDraft(userId: string): ListingDraft | null {
  try {
    const raw = localStorage.getItem(draftKey(userId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as Partial<ListingDraft>;
    if (typeof draft.idempotencyKey !== 'string' || typeof draft.values !== 'object') return null;
    if (draft.values === null || !Array.isArray(draft.values.imageUrls)) return null;
    return draft as ListingDraft;
  } catch {
    return null;
  }
}

export function saveListingDraft(userId: string, draft: ListingDraft): void {
  try {
    localStorage.setItem(draftKey(userId), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the form still works, only without a draft.
  }
}

export function clearListingDraft(userId: string): void {
  try {
    localStorage.removeItem(draftKey(userId));
  } catch {
    // Nothing to clear.
  }
}
