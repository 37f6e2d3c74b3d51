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

/** Every feature's table owners, as `feature/name.repository.ts`. */
const repositoriesIn = (dir) =>
  foldersIn(dir).flatMap((feature) =>
    readdirSync(new URL(`${dir}/${feature}`, import.meta.url))
      .filter((name) => name.endsWith('.repository.ts') && !name.endsWith('.test.ts'))
      .map((name) => `${feature}/${name}`),
  );

/**
 * A feature's repositories (`*.repository.ts`) are its door to its tables, and every server
 * feature may import them: only a table's owner writes it (test/structure/table-owners.test.ts),
 * so another feature that must change or read those rows (a deleted account's listings, a
 * moderator's hide, the images of an upload) calls the owner's repository, which keeps its
 * guarantees (act-once updates, row locks), and the rest of the feature stays private. A
 * repository imports only its own feature, the shared core (below) and other repositories (a zone
 * below holds it), so opening them opens no feature's rules.
 *
 * The shared core: files of a feature that every server feature may import, as
 * `'feature/file.ts': 'what: why'`. They state one rule or one shape that several features must
 * agree on (how a listing answers, who may see it, who moderates, how a mail is sent), so a second
 * copy would drift; each is small and imports only its own feature, this list and repositories.
 */
const SERVER_SHARED_CORE = {
  'listings/listing.serializer.ts':
    'toListing: a listing answers the same wherever it is shown (profiles, saved, the queue, publish all)',
  'listings/listing-json-answer.ts':
    'jsonArray, listingJson: the answer the database stores with each listing, sent as it is',
  'listings/listing-visibility.ts':
    'isVisibleTo, visibleTo, viewerOf, LISTING_NOT_FOUND: the one visibility rule and its one 404',
  'moderation/moderators.ts': 'isModerator, moderatorHooks: the one moderator check',
  'moderation/moderation.messages.ts':
    'ACCOUNT_SUSPENDED, NOT_A_MODERATOR: a refusal reads the same wherever it is made',
  'alerts/unsubscribe-token.ts':
    'signUnsubscribeToken, kindUnsubscribe: every mail is unsubscribed by the same signed one-click link',
  'notifications/deliver.ts':
    "deliverMail, deliverPush, shouldSend: every mail and push asks the student's choices and quiet hours in one place",
  'notifications/notification-settings.ts':
    "loadNotificationSettings, stopMails: a student's choices read, and a kind's mails stopped, in one place",
  'alerts/alerts.demand.ts':
    'pageDemand, mostWanted: the demand line every page of books shows, counted one way',
  'images/images.service.ts':
    'claimImages, claimMessagePhotos, readImageFile, releaseImages, deleteImages, ImageDeps, UPLOAD_CAP: every photo, avatar, cover and message photo is an image of the one pipeline',
  'images/image-processing.ts':
    "processImage: that pipeline's one processing of a file (an upload's, a publisher's cover), its checks and variants",
  'search/listing-caches.ts':
    'ListingCaches: the catalogue caches that a write of listings empties, wherever it is made',
  'search/catalogue-kept.ts':
    "keptUntilCatalogueChanges: an answer kept as the search's answers are, emptied with them",
};

/**
 * Each other file a server feature imports from another feature, with what it takes and why, as
 * `feature: { 'other/file.ts': 'what: why' }`. Only repositories, the shared core and these files
 * may be imported across features (the rest of the other feature stays private); each is a known
 * exception, not a pattern to follow: a new one is a decision to write here. A file no longer
 * imported is taken out.
 *
 * Why these stay (issue 41): each is one feature asking another's rule, not its table. A listing's
 * sale, create, seller's list and image release (listings.service, with listingDeps for the
 * create) carry every rule of the listings' own routes and call the alerts' news: the core holds
 * only small rules, and a port of re-exports would only rename them. The listing page's other
 * copies (search) and its news (alerts), a meetup's conversation, the push digest, a new
 * account's session answer and password, my-courses' alert create and title grouping, and the
 * listing caches' StoredListing (a type beside the query that reads it) are each used by one
 * feature: a shared port for one caller is a longer way to the same import.
 */
const SERVER_FEATURE_IMPORTS = {
  accounts: {
    'listings/listings.service.ts': "listSellerListings: the seller's listings, visibility applied",
  },
  conversations: {
    'listings/listings.service.ts':
      "getOwnListing, markListingSold, markListingsSold: the seller's own listing, and its sale (a held set's books together) with every rule of a sale",
  },
  listings: {
    'alerts/alerts.delivery.ts':
      'enqueueListingEvent: a new, relisted or sold listing is news for alerts and savers',
    'moderation/moderation.service.ts':
      'requestReview: a seller asks for a review of a hidden listing',
    'search/search.service.ts':
      "searchListings: a listing's page shows the other copies of its book",
    'search/search-pages.ts': 'listingsOf: those copies as the search page shows its results',
  },
  meetups: {
    'conversations/conversations.service.ts':
      'getParticipantConversation, assertWritable, ConversationDeps: a meetup is suggested in a conversation, by its participants, unless either blocked the other',
  },
  moderation: {
    'listings/listings.service.ts':
      "releaseUnusedImages: a removed listing's images go as a seller's delete's do",
  },
  'my-courses': {
    'alerts/alerts.service.ts':
      "createAlert, toAlert: through the alerts' own create, with its rules",
    'courses/course-books.ts': 'normaliseTitle: books grouped as a course page groups them',
  },
  push: {
    'notifications/digest.ts':
      'takeDueDigests, DIGEST_CHECK_MS: the pushes held in quiet hours go as one, when the mails do',
  },
  search: {
    'listings/listings.queries.ts':
      "StoredListing (a type): the listing caches keep a listing's stored answer by id",
  },
  shelf: {
    'listings/listings.service.ts':
      'createListing, LISTING_CREATE_LIMIT: each listing made with every rule and limit of a single create',
    'listings/listing-deps.ts': 'listingDeps: what that create uses, from the app',
  },
  sso: {
    'accounts/current-user.ts': 'toCurrentUser: the session answer',
    'accounts/password.ts': 'hashPassword: the unusable password of a new account',
  },
};

/** One zone a feature folder: it may import only itself, the shared core and the files listed for it. */
const featureZones = (root, features, exceptions = {}, core = {}, open = []) =>
  features.map((feature) => ({
    target: `${root}/${feature}`,
    from: root,
    except: [
      `./${feature}`,
      ...open.map((file) => `./${file}`),
      ...Object.keys(core).map((file) => `./${file}`),
      ...Object.keys(exceptions[feature] ?? {}).map((file) => `./${file}`),
    ],
    message: 'A feature does not import another feature: move what they share out of features/.',
  }));

/** A repository, open to every feature, imports no other feature's rules: only what is open too. */
const repositoryZones = (root, features, core, open) =>
  features.map((feature) => ({
    target: `${root}/${feature}/*.repository.ts`,
    from: root,
    except: [`./${feature}`, ...open, ...Object.keys(core)].map((file) => `./${file}`),
    message: 'A repository imports only its feature, the shared core and other repositories.',
  }));

// Read by packages/server/test/structure/import-exceptions.test.ts.
export { SERVER_FEATURE_IMPORTS, SERVER_SHARED_CORE };

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
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
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
              SERVER_FEATURE_IMPORTS,
              SERVER_SHARED_CORE,
              repositoriesIn('packages/server/src/features'),
            ),
            ...repositoryZones(
              './packages/server/src/features',
              foldersIn('packages/server/src/features'),
              SERVER_SHARED_CORE,
              repositoriesIn('packages/server/src/features'),
            ),
          ],
        },
      ],
    },
  },
  prettier,
);
