import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, listingBody, signUpVerified, upload } from './api-client';
import { checkConsistency } from './consistency';
import { freePort, startServer, stopServer, waitHealthy, type ServerProcess } from './processes';
import sharp from 'sharp';

/** A photo of noise: it does not compress, so its variants need real room on the disk. */
async function bigPhoto(): Promise<Buffer> {
  const width = 1600;
  const height = 1200;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** DATA_DIR/uploads is a 3 MB tmpfs, nearly filled, so an upload meets ENOSPC for real. */
describe('the disk fills up during an upload', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-rel-full-'));
  const uploads = path.join(dataDir, 'uploads');
  let server: ServerProcess;
  beforeAll(async () => {
    mkdirSync(uploads, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', uploads]);
    server = startServer({ DATA_DIR: dataDir }, await freePort());
    await waitHealthy(server);
  }, 120_000);
  afterAll(async () => {
    await stopServer(server);
    execFileSync('umount', [uploads]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses the upload clearly, keeps no partial file, changes no data, keeps serving reads', async () => {
    const seller = await signUpVerified(server.url, dataDir);
    const photo = await bigPhoto();
    const first = await upload(server.url, seller.cookie, photo);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const listing = await call(server.url, 'POST', '/api/listing/create', {
      cookie: seller.cookie,
      json: listingBody('Before the disk filled', [first.url!]),
    });
    expect(listing.status).toBe(201);

    // Leave about 200 KB: the upload's parts fit, its variants do not.
    const free = () => statfsSync(uploads).bavail * statfsSync(uploads).bsize;
    writeFileSync(
      path.join(uploads, 'filler'),
      Buffer.alloc(Math.max(0, free() - photo.length - 200 * 1024)),
    );
    const before = await call(server.url, 'GET', '/api/listing/get');

    const refused = await upload(server.url, seller.cookie, photo);
    const afterFiles = free();

    const search = await call(server.url, 'GET', '/api/listing/get');
    const image = await fetch(`${server.url}${first.url!.replace(/[^/]+\.webp$/, '640.webp')}`);
    const health = await call(server.url, 'GET', '/api/health');
    console.log(
      `[figure] disk full: ${JSON.stringify({
        uploadStatus: refused.status,
        message: refused.body.message,
        freeBytesAfter: afterFiles,
        searchStatus: search.status,
        imageStatus: image.status,
        healthStatus: health.status,
      })}`,
    );
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body).toMatchObject({ success: false });
    expect(String(refused.body.message)).toMatch(/could not be stored|try again|space/i);
    expect(search.status).toBe(200);
    expect(search.body).toEqual(before.body);
    expect(image.status).toBe(200);
    expect(health.status).toBe(200);

    await stopServer(server);
    rmSync(path.join(uploads, 'filler'));
    const consistency = await checkConsistency(dataDir);
    console.log(
      `[figure] disk full, afterwards: ${JSON.stringify({ ...consistency, ids: undefined })}`,
    );
    expect(consistency.listingsWithMissingFiles).toEqual([]);
    expect(consistency.filesWithoutOwnerRecord).toEqual([]);
    // Only the first image is stored: the refused one left neither files nor a usable row.
    expect(consistency.files).toBe(4);
    server = startServer({ DATA_DIR: dataDir }, server.port);
    await waitHealthy(server);
  }, 300_000);
});
