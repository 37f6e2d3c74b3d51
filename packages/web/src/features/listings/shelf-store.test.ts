import { describe, expect, it } from 'vitest';
import { mergeShelf, type ShelfDraft } from './shelf-store';

const draft = (id: string, name: string, synced: boolean): ShelfDraft => ({
  id,
  fields: { name },
  imageUrls: [],
  synced,
});

describe('mergeShelf', () => {
  it("keeps the device's unsent versions and drafts, and drops what the server finished", () => {
    const local = [
      draft('a', 'edited offline', false),
      draft('b', 'sent', true),
      draft('c', 'new', false),
    ];
    const server = [
      { id: 'a', fields: { name: 'old' }, imageUrls: [] },
      { id: 'd', fields: { name: 'from the other phone' }, imageUrls: [] },
    ];
    expect(mergeShelf(local, server).map((d) => [d.id, d.fields.name, d.synced])).toEqual([
      ['a', 'edited offline', false],
      ['d', 'from the other phone', true],
      ['c', 'new', false],
    ]);
  });
});
