import { startTestS3Server } from './s3-test-server';
import { createTestApp, type TestApp } from '../helpers';

/** The stores every upload test runs against: the default local disk and S3 (s3rver). */
export const STORE_KINDS = ['local', 's3'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** The real app with the given store; for S3 a local S3 server runs for the app's lifetime. */
export async function createUploadTestApp(kind: StoreKind): Promise<TestApp> {
  if (kind === 'local') return createTestApp();
  const s3 = await startTestS3Server();
  const testApp = await createTestApp(s3.env);
  return {
    ...testApp,
    close: async () => {
      await testApp.close();
      await s3.close();
    },
  };
}
