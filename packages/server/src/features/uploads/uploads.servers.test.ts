import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES } from '@campus-books/common/constants';
import { createUser, TEST_ENGINE, type TestApp, type TestUser } from '../../../test/helpers';
import { createAppOn, openSharedDatabase } from '../../../test/shared-database';
import { images } from '../../db/schema';
import { startTestS3Server, type TestS3Server } from '../../../test/support/s3-test-server';
import { phoneJpeg } from '../../../test/support/test-images';
import {
  createUpload,
  deleteUpload,
  headUpload,
  patchUpload,
} from '../../../test/support/tus-test-client';

/**
 * Two app servers on one database and one bucket: an upload started on one can be resumed,
 * finished or cancelled on the other (its state is in the bucket, its lock in the database).
 */
describe(`an upload across two app servers (${TEST_ENGINE})`, () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabase>>;
  let s3: TestS3Server;
  let a: TestApp;
  let b: TestApp;
  let user: TestUser;
  let jpeg: Buffer;

  beforeAll(async () => {
    shared = await openSharedDatabase();
    s3 = await startTestS3Server();
    a = await createAppOn(shared.first, s3.env);
    b = await createAppOn(shared.second, s3.env);
    user = await createUser(a);
    jpeg = await phoneJpeg();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await s3?.close();
    await shared?.close();
  });

  it('starts on A, resumes and finishes on B, alternating chunks', async () => {
    const created = await createUpload(a.app, user.cookie, jpeg.length);
    expect(created.statusCode).toBe(201);
    const location = created.location!;
    const first = await patchUpload(
      a.app,
      user.cookie,
      location,
      0,
      jpeg.subarray(0, UPLOAD_CHUNK_BYTES),
    );
    expect(first.statusCode).toBe(204);
    const head = await headUpload(b.app, user.cookie, location);
    expect(head.offset).toBe(UPLOAD_CHUNK_BYTES);
    let last = first;
    for (
      let offset = UPLOAD_CHUNK_BYTES, i = 0;
      offset < jpeg.length;
      offset += UPLOAD_CHUNK_BYTES, i += 1
    ) {
      const server = i % 2 ? a : b;
      last = await patchUpload(
        server.app,
        user.cookie,
        location,
        offset,
        jpeg.subarray(offset, offset + UPLOAD_CHUNK_BYTES),
      );
      expect(last.statusCode, String(last.body)).toBeLessThan(300);
    }
    const id = location.split('/').at(-1)!;
    const [row] = await a.database.db.select().from(images).where(eq(images.id, id));
    expect(row).toMatchObject({ status: 'ready', bytes: jpeg.length });
    expect(row!.height).toBeGreaterThan(row!.width!); // decoded whole: rotated upright
  });

  it('starts on A and is cancelled on B', async () => {
    const created = await createUpload(a.app, user.cookie, jpeg.length);
    const location = created.location!;
    await patchUpload(a.app, user.cookie, location, 0, jpeg.subarray(0, UPLOAD_CHUNK_BYTES));
    expect((await deleteUpload(b.app, user.cookie, location)).statusCode).toBe(204);
    expect((await headUpload(a.app, user.cookie, location)).statusCode).toBe(404);
    expect(await s3Keys(location.split('/').at(-1)!)).toEqual([]);
  });

  const s3Keys = async (id: string) => (await a.app.storage.list(`tus/${id}/`)).map((o) => o.key);
});
