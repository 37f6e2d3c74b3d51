import { startTestS3Server } from './s3-test-server';
import { createTestApp, TEST_ENGINE, type TestApp } from '../helpers';

/** The stores the uploads are kept in: the default local disk and S3 (s3rver). */
const EVERY_STORE_KIND = ['local', 's3'] as const;
export type StoreKind = (typeof EVERY_STORE_KIND)[number];

/**
 * The stores this run's upload and image suites run against. The store and the database engine
 * are two layers that meet only through the storage interface: `npm test` (CI's short form, with
 * PostgreSQL) runs each store on one engine, the local disk on PGlite and S3 on PostgreSQL, so every
 * test still meets both stores and both engines; `npm run test:full` (TEST_FULL=1), or a run
 * without PostgreSQL, runs both stores on every engine.
 */
export const STORE_KINDS: readonly StoreKind[] =
  process.env.TEST_FULL === '1' || !process.env.TEST_DATABASE_URL
    ? EVERY_STORE_KIND
    : [TEST_ENGINE === 'pglite' ? 'local' : 's3'];

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
