import type { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/server';
import { deletePrefix, type Storage } from '../../lib/storage/storage';

/**
 * tus upload state kept in the app's Storage (local disk, or the S3 bucket shared by every app server).
 * Each PATCH's bytes become one object named by its offset, so no append is needed: images are at
 * most 2 MB, sent in 256 KB chunks. (@tus/s3-store needs S3 multipart uploads with 5 MB parts and
 * ListParts, which our 2 MB files would never use fully and the local S3 emulator cannot test.)
 */
export class StorageDataStore extends DataStore {
  constructor(private readonly storage: Storage) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination'];
  }

  private prefix(id: string) {
    return `tus/${id}/`;
  }

  private infoKey(id: string) {
    return `${this.prefix(id)}info.json`;
  }

  override async create(upload: Upload): Promise<Upload> {
    const info = {
      id: upload.id,
      size: upload.size,
      metadata: upload.metadata,
      creation_date: upload.creation_date,
    };
    await this.storage.put(this.infoKey(upload.id), Buffer.from(JSON.stringify(info)));
    return upload;
  }

  /** Stores what arrived; an interrupted PATCH keeps its received bytes, as tus resumption expects. */
  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
    }
    if (length > 0) {
      const key = `${this.prefix(id)}part-${String(offset).padStart(10, '0')}`;
      try {
        await this.storage.put(key, Buffer.concat(chunks, length));
      } catch (error) {
        if (!(await this.exists(id))) throw ERRORS.FILE_NOT_FOUND;
        throw error;
      }
      // A cancel (DELETE) removes the state without tus's lock: when it came while these bytes
      // were written, remove them too rather than leave a part nobody will ever delete.
      if (!(await this.exists(id))) {
        await this.discard(id);
        throw ERRORS.FILE_NOT_FOUND;
      }
    }
    return offset + length;
  }

  private async exists(id: string) {
    return (await this.storage.get(this.infoKey(id))) !== null;
  }

  private async parts(id: string) {
    const objects = await this.storage.list(`${this.prefix(id)}part-`);
    const contiguous: { key: string; size: number }[] = [];
    let offset = 0;
    for (const object of objects) {
      if (Number(object.key.slice(-10)) !== offset) break;
      contiguous.push(object);
      offset += object.size;
    }
    return { parts: contiguous, offset };
  }

  override async getUpload(id: string): Promise<Upload> {
    const raw = await this.storage.get(this.infoKey(id));
    if (!raw) throw ERRORS.FILE_NOT_FOUND;
    const info = JSON.parse(raw.toString('utf8')) as ConstructorParameters<typeof Upload>[0];
    const { offset } = await this.parts(id);
    return new Upload({ ...info, id, offset });
  }

  /** The whole upload's bytes, once complete. */
  async readAll(id: string): Promise<Buffer> {
    const { parts, offset } = await this.parts(id);
    const buffers = await Promise.all(parts.map((p) => this.storage.get(p.key)));
    return Buffer.concat(
      buffers.map((b) => b ?? Buffer.alloc(0)),
      offset,
    );
  }

  override async remove(id: string): Promise<void> {
    if (!(await this.storage.get(this.infoKey(id)))) throw ERRORS.FILE_NOT_FOUND;
    await deletePrefix(this.storage, this.prefix(id));
  }

  /** Deletes whatever state an upload left, without complaining when there is none. */
  async discard(id: string): Promise<void> {
    await deletePrefix(this.storage, this.prefix(id));
  }
}
