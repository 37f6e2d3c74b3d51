import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { processImage } from '../images/image-processing';
import { phoneJpeg } from '../../../test/support/test-images';
import { createUpload, headUpload, patchUpload } from '../../../test/support/tus-test-client';
import { STORE_KINDS, createUploadTestApp } from '../../../test/support/upload-test-app';

/** Sends the start of a PATCH over a real socket, then drops the connection mid-body. */
function patchThenDisconnect(
  port: number,
  path: string,
  cookie: string,
  bytes: Buffer,
  sendBytes: number,
) {
  return new Promise<void>((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      path,
      method: 'PATCH',
      headers: {
        cookie,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    request.on('error', () => resolve());
    request.on('close', () => resolve());
    request.write(bytes.subarray(0, sendBytes), () => {
      // Give the bytes a moment on the wire, then cut the connection like a lost network.
      setImmediate(() => request.destroy());
    });
  });
}

describe.each(STORE_KINDS)('an interrupted upload, %s store', (kind) => {
  let t: TestApp;
  let user: TestUser;
  let port: number;

  beforeAll(async () => {
    t = await createUploadTestApp(kind);
    user = await createUser(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('resumes after a dropped connection and ends with identical bytes', async () => {
    const photo = await phoneJpeg();
    const created = await createUpload(t.app, user.cookie, photo.length);
    const location = created.location!;
    await patchThenDisconnect(port, location, user.cookie, photo, 600_000);

    // The server keeps what arrived and says where to resume. Like a tus client, ask again when
    // the server was still finishing the dropped request (409: the offset moved meanwhile).
    let done;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const head = await headUpload(t.app, user.cookie, location);
      expect(head.statusCode).toBe(200);
      expect(head.offset).toBeLessThanOrEqual(600_000);
      done = await patchUpload(
        t.app,
        user.cookie,
        location,
        head.offset,
        photo.subarray(head.offset),
      );
      if (done.statusCode !== 409) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(done?.statusCode).toBe(200);
    const id = location.split('/').pop()!;
    const expected = await processImage(photo);
    for (const variant of expected.variants) {
      const stored = await t.app.storage.get(`images/${id}/${variant.name}.webp`);
      expect(stored?.equals(variant.data)).toBe(true);
    }
  });
});
