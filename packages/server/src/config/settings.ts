import { z } from 'zod';
import {
  basicSettings,
  bookLookupSettings,
  databaseSettings,
  dealSettings,
  mailSettings,
  moderationSettings,
  storageSettings,
} from './env-schema';
import {
  jobSettings,
  limitSettings,
  observabilitySettings,
  performanceSettings,
  retentionSettings,
  testSettings,
} from './env-schema-operations';
import { pushSettings, pushTestSettings } from './push-config';
import { ssoSettings } from './sso-config';

/** One table of docs/configuration.md: a title, a sentence of context, the schema of its settings. */
export interface SettingsSection {
  title: string;
  intro: string;
  schema: z.ZodObject;
}

/** The operator's commands (`npm run demo`, ops/demo.ts) read these; the server does not. */
export const commandSettings = z.object({
  DEMO_DATA_DIR: z
    .string()
    .default('./data-demo')
    .describe('The folder `npm run demo` seeds and serves; never the real `DATA_DIR`.'),
});

/** Every setting the product reads, in the order docs/configuration.md presents them. */
export const settingsSections: SettingsSection[] = [
  {
    title: 'The basics',
    intro: 'Where the server listens, where it keeps its data, and who may join.',
    schema: basicSettings,
  },
  {
    title: 'Database',
    intro: 'The embedded database (PGlite, in `DATA_DIR`) unless a PostgreSQL server is named.',
    schema: databaseSettings,
  },
  {
    title: 'Mail',
    intro: 'Without an SMTP server every mail is a file in `DATA_DIR/outbox/`.',
    schema: mailSettings,
  },
  {
    title: 'Files and storage',
    intro: 'Uploaded photos live in `DATA_DIR/uploads` unless an S3-compatible bucket is named.',
    schema: storageSettings,
  },
  {
    title: 'Sign-on',
    intro: 'Single sign-on with the campus identity provider: docs/sso.md explains each protocol.',
    schema: ssoSettings,
  },
  {
    title: 'Push notifications',
    intro: 'Web Push (docs/operations.md, "Push notifications").',
    schema: pushSettings,
  },
  {
    title: 'Listings, deals and mails',
    intro: 'How long things last in the marketplace, and when students are reminded.',
    schema: dealSettings,
  },
  {
    title: 'Moderation',
    intro: 'Reports and the moderators who look at them (decision 016).',
    schema: moderationSettings,
  },
  {
    title: 'Book lookup',
    intro: "The listing form's ISBN autofill and the covers it offers (features/books).",
    schema: bookLookupSettings,
  },
  {
    title: 'Limits',
    intro:
      'Attempts per window, sized for a campus behind a few NAT addresses (docs/security.md, "Sign-in and sign-up limits").',
    schema: limitSettings,
  },
  {
    title: 'Background jobs and shutdown',
    intro: 'How often the jobs look for work, and how a stopping server lets go of it.',
    schema: jobSettings,
  },
  {
    title: 'Retention',
    intro: 'What the retention job removes (docs/operations.md, "Retention").',
    schema: retentionSettings,
  },
  {
    title: 'Performance and caches',
    intro: 'Memory and priorities on a busy server.',
    schema: performanceSettings,
  },
  {
    title: 'Observability',
    intro: 'Logs and metrics (docs/operations.md).',
    schema: observabilitySettings,
  },
  {
    title: 'Commands',
    intro: "Read by the operator's commands, not by the server.",
    schema: commandSettings,
  },
  {
    title: 'Test only',
    intro:
      'Knobs the test suites turn; a deployment never sets them (the two refused in production say so at start-up).',
    schema: testSettings.extend(pushTestSettings.shape),
  },
];
