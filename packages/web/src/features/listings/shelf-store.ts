import type { DraftFields } from '@campus-books/common/shelf.schemas';

/** A draft as the device keeps it: `synced` once the server holds this very version. */
export interface ShelfDraft {
  id: string;
  fields: DraftFields;
  imageUrls: string[];
  synced: boolean;
  /** What "Publish all" said of it last time, shown until it changes. */
  problem?: string;
}

const storeKey = (userId: string) => `campus-books:shelf:${userId}`;

/** The drafts this device keeps for the user (nothing when storage is off or unreadable). */
export function readShelf(userId: string): ShelfDraft[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storeKey(userId)) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (d): d is ShelfDraft =>
        typeof d === 'object' &&
        d !== null &&
        typeof (d as ShelfDraft).id === 'string' &&
        typeof (d as ShelfDraft).fields === 'object' &&
        Array.isArray((d as ShelfDraft).imageUrls),
    );
  } catch {
    return [];
  }
}

export function writeShelf(userId: string, drafts: ShelfDraft[]): void {
  try {
    localStorage.setItem(storeKey(userId), JSON.stringify(drafts));
  } catch {
    // Storage full or off: the server's copy still keeps the drafts.
  }
}

/**
 * The shelf after the server answered its list: the server's drafts, with this device's versions
 * that it has not sent yet in their place (and drafts only this device knows of, still to send). A
 * draft this device had sent but the server no longer holds was published or deleted elsewhere.
 */
export function mergeShelf(
  local: ShelfDraft[],
  server: { id: string; fields: DraftFields; imageUrls: string[] }[],
): ShelfDraft[] {
  const unsent = new Map(local.filter((d) => !d.synced).map((d) => [d.id, d]));
  const merged: ShelfDraft[] = server.map(
    (d) => unsent.get(d.id) ?? { id: d.id, fields: d.fields, imageUrls: d.imageUrls, synced: true },
  );
  const known = new Set(server.map((d) => d.id));
  for (const d of unsent.values()) if (!known.has(d.id)) merged.push(d);
  return merged;
}
