import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from '@20minutes/s3rver';
import type { S3StorageConfig } from '../../src/lib/storage/s3-storage';

export interface TestS3Server {
  config: S3StorageConfig;
  /** The same settings as environment variables, for createTestApp. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A real S3-protocol server (s3rver) on 127.0.0.1 with one empty bucket, for tests only. */
export async function startTestS3Server(): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'cb-s3-'));
  const bucket = 'campus-books-test';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
    // s3rver canonicalises a bucket URL without the trailing slash the SDK signs, so its
    // ListObjectsV2 signature check fails on correct requests: signatures are not checked here.
    allowMismatchedSignatures: true,
  });
  const { port } = (await server.run()) as { port: number };
  const config: S3StorageConfig = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  };
  return {
    config,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: config.endpoint!,
      S3_REGION: config.region,
      S3_ACCESS_KEY_ID: config.accessKeyId!,
      S3_SECRET_ACCESS_KEY: config.secretAccessKey!,
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
