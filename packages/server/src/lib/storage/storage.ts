/** One place to keep uploaded files: local disk (default) or S3-compatible object storage. */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Writes the whole object, replacing any previous one. */
  put(key: string, body: Buffer, contentType?: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Keys and sizes of the objects whose key starts with `prefix`, sorted by key. */
  list(prefix: string): Promise<StoredObject[]>;
  /** Deletes one object; deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface StoredObject {
  key: string;
  size: number;
}

/** Keys are built by the server only; this refuses anything that could escape the store's root. */
const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*\/?$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}

/** Deletes every object under a prefix (e.g. all variants of one image). */
export async function deletePrefix(storage: Storage, prefix: string): Promise<void> {
  const objects = await storage.list(prefix);
  for (const object of objects) await storage.delete(object.key);
}
