import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const foldersIn = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * Server features that import another feature today, as `feature: [features it may import]`.
 * Each is a known exception, not a pattern to follow: a new one is a decision to write here.
 */
const SERVER_FEATURE_EXCEPTIONS = {
  // Sign-in refuses suspended accounts and the session answer names moderators; avatars are
  // images; /api/user/listings/:id answers with the seller's listings.
  accounts: ['moderation', 'images', 'listings'],
  // An alert's cap is counted under a lock on the user's row (users.repository).
  alerts: ['accounts'],
  // A publisher's cover goes through the upload pipeline's image processing.
  books: ['images'],
  // A course's server-rendered page carries its demand line's count (alerts.demand).
  courses: ['alerts'],
  // Listings claim images, fan out alert mails (and a listing's page carries its demand line's
  // count), and hide from non-moderators.
  listings: ['images', 'alerts', 'moderation'],
  // Moderation acts on listings (hide, remove) through the listings service.
  moderation: ['listings'],
  // Saved listings are listings, serialised the same way.
  saved: ['listings'],
  // A finished tus upload becomes an image (processing, the images row, the hourly cap).
  uploads: ['images'],
};

/** One zone a feature folder: it may import only itself (and the listed exceptions). */
const featureZones = (root, features, exceptions = {}) =>
  features.map((feature) => ({
    target: `${root}/${feature}`,
    from: root,
    except: [`./${feature}`, ...(exceptions[feature] ?? []).map((other) => `./${other}`)],
    message: 'A feature does not import another feature: move what they share out of features/.',
  }));

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-ssr/**',
      '**/node_modules/**',
      'data/**',
      'data-demo/**',
      '.tmp/**',
      '**/test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // A promise nobody awaits hides its failure: type-checked, in the packages.
    files: [
      'packages/*/src/**/*.{ts,tsx}',
      'packages/*/test/**/*.ts',
      'packages/e2e/tests/**/*.ts',
    ],
    languageOptions: { parserOptions: { projectService: true } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Import boundaries (bulletproof-react in the web app; plugins below features on the server).
    files: ['packages/web/src/**/*.{ts,tsx}', 'packages/server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureZones('./packages/web/src/features', foldersIn('packages/web/src/features')),
            ...['components', 'api', 'lib', 'config'].map((shared) => ({
              target: `./packages/web/src/${shared}`,
              from: './packages/web/src/features',
              message: 'Shared code does not import a feature.',
            })),
            {
              target: './packages/server/src/plugins',
              from: './packages/server/src/features',
              message: 'A plugin does not import a feature: app.ts passes what it needs.',
            },
            ...featureZones(
              './packages/server/src/features',
              foldersIn('packages/server/src/features'),
              SERVER_FEATURE_EXCEPTIONS,
            ),
          ],
        },
      ],
    },
  },
  prettier,
);
