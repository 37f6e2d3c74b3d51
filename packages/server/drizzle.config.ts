import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/db/schema.ts',
    './src/db/conversations.schema.ts',
    './src/db/shelf.schema.ts',
    './src/db/ratings.schema.ts',
    './src/db/push.schema.ts',
    './src/db/saved.schema.ts',
    './src/db/moderation.schema.ts',
    './src/db/sso.schema.ts',
    './src/db/courses.schema.ts',
    './src/db/alerts.schema.ts',
    './src/db/platform.schema.ts',
    './src/db/notifications.schema.ts',
  ],
  out: './src/db/migrations',
});
