import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';
import { startTestS3Server, type TestS3Server } from '../../../test/support/s3-test-server';
import { deletePrefix, type Storage } from './storage';

interface Store {
  storage: Storage;
  close(): Promise<void>;
}

const stores: Record<'local' | 's3', () => Promise<Store>> = {
  local: async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'cb-storage-'));
    const storage = createLocalStorage(root);
    return { storage, close: async () => rmSync(root, { recursive: true, force: true }) };
  },
  s3: async () => {
    const server: TestS3Server = await startTestS3Server();
    const storage = createS3Storage(server.config);
    return {
      storage,
      close: async () => {
        await storage.close();
        await server.close();
      },
    };
  },
};

describe.each(Object.keys(stores) as (keyof typeof stores)[])('storage: %s', (kind) => {
  let store: Store;
  let storage: Storage;
  beforeAll(async () => {
    store = await stores[kind]();
    storage = store.storage;
  });
  afterAll(() => store.close());

  it('puts and gets bytes unchanged', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    await storage.put('images/a/320.webp', bytes, 'image/webp');
    expect(await storage.get('images/a/320.webp')).toEqual(bytes);
  });

  it('answers null for a missing object', async () => {
    expect(await storage.get('images/missing/320.webp')).toBeNull();
  });

  it('replaces an object that is put again', async () => {
    await storage.put('replace/x', Buffer.from('one'));
    await storage.put('replace/x', Buffer.from('two'));
    expect((await storage.get('replace/x'))?.toString()).toBe('two');
  });

  it('lists objects under a prefix, sorted, with sizes', async () => {
    await storage.put('list/b/2', Buffer.alloc(2));
    await storage.put('list/b/1', Buffer.alloc(1));
    await storage.put('list/c/3', Buffer.alloc(3));
    await storage.put('listing-other', Buffer.alloc(4));
    expect(await storage.list('list/b/')).toEqual([
      { key: 'list/b/1', size: 1 },
      { key: 'list/b/2', size: 2 },
    ]);
    expect((await storage.list('list/')).map((o) => o.key)).toEqual([
      'list/b/1',
      'list/b/2',
      'list/c/3',
    ]);
    expect(await storage.list('nothing/')).toEqual([]);
  });

  it('deletes objects; deleting a missing one is fine', async () => {
    await storage.put('del/one', Buffer.from('x'));
    await storage.delete('del/one');
    expect(await storage.get('del/one')).toBeNull();
    await expect(storage.delete('del/one')).resolves.toBeUndefined();
  });

  it('deletes everything under a prefix', async () => {
    await storage.put('images/p/320.webp', Buffer.from('a'));
    await storage.put('images/p/640.webp', Buffer.from('b'));
    await storage.put('images/q/320.webp', Buffer.from('c'));
    await deletePrefix(storage, 'images/p/');
    expect(await storage.list('images/p/')).toEqual([]);
    expect(await storage.list('images/q/')).toHaveLength(1);
  });

  it('refuses keys that could escape the store', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'UPPER', 'a b', 'a\\b']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.get(key)).rejects.toThrow(/Unsafe storage key/);
    }
  });
});
