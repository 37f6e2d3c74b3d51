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
 * The shared core: files of a feature that every server feature may import, as
 * `'feature/file.ts': 'what: why'`. They state one rule or one shape that several features must
 * agree on (how a listing answers, who may see it, who moderates, who a user is), so a second copy
 * would drift; each is small and imports no feature outside this list but its own.
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
  'moderation/moderation.repository.ts':
    "logModeratorAction, logSellerDelete: every moderator's action goes in the one audit log, through its owner",
  'accounts/users.repository.ts':
    "user look-ups, the row lock a student's caps are counted under, and the users' columns (mail choices, suspension) written by their owner",
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
  'search/listing-caches.ts':
    'ListingCaches: the catalogue caches that a write of listings empties, wherever it is made',
  'search/catalogue-kept.ts':
    "keptUntilCatalogueChanges: an answer kept as the search's answers are, emptied with them",
};

/**
 * Each other file a server feature imports from another feature, with what it takes and why, as
 * `feature: { 'other/file.ts': 'what: why' }`. Only the shared core and these files may be imported
 * across features (the rest of the other feature stays private); each is a known exception, not a
 * pattern to follow: a new one is a decision to write here. A file no longer imported is taken out.
 */
const SERVER_FEATURE_IMPORTS = {
  accounts: {
    'images/images.repository.ts': 'imageIdsOfUser: a deleted account takes its images with it',
    'listings/listings.service.ts': "listSellerListings: the seller's listings, visibility applied",
    'listings/listings.repository.ts':
      "deleteListingsOfUser, idsOfListingsBy: a deleted account's listings, written by their owner",
    'listings/listing-moderation.repository.ts':
      "keepDeletedForModerators, lockListingModeration: those under report are kept for the moderators, under the listing's lock",
  },
  alerts: {
    'shelf/term-end.repository.ts':
      'setTermEndSubscription: an unsubscribe link also stops the end-of-term mail, written by its owner',
  },
  notifications: {
    'shelf/term-end.repository.ts':
      "isTermEndSubscriber, setTermEndSubscription: the end-of-term mail's choice is its subscription, written by its owner",
  },
  books: {
    'images/image-processing.ts':
      "processImage: a publisher's cover goes through the upload pipeline",
    'images/images.repository.ts': 'insertReadyImage: the processed cover is an images row',
  },
  conversations: {
    'listings/listings.repository.ts':
      "findListingById, holdListings, releaseListingHold, endDueHolds: a conversation's listing and the hold of an offer's set, written by the listings' owner",
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
    'listings/listings.repository.ts':
      'isListingId, deleteListingRow: which listing a path names, and the deletion of one kept for the moderators',
    'listings/listing-moderation.repository.ts':
      "lockListingModeration, hideListingForReports, hideListingsOfSeller, unhideListings, removeListingForModerators, restoreRemovedListing, requestListingReview: a listing's moderation state is written by the listings' owner, under its lock",
    'listings/listings.service.ts':
      "releaseUnusedImages: a removed listing's images go as a seller's delete's do",
  },
  'my-courses': {
    'alerts/alerts.service.ts':
      "createAlert, toAlert: through the alerts' own create, with its rules",
    'courses/course-books.ts': 'normaliseTitle: books grouped as a course page groups them',
    'courses/required-books.repository.ts':
      "findRequiredBooks, inCourses: the required-books list of the student's courses",
  },
  privacy: {
    'accounts/email-tokens.repository.ts':
      'deleteSpentEmailTokens: the retention policy deletes used and expired links through their owner',
  },
  push: {
    'notifications/digest.ts':
      'takeDueDigests, DIGEST_CHECK_MS: the pushes held in quiet hours go as one, when the mails do',
  },
  saved: {
    'listings/listings.repository.ts': 'isListingId: which listing a path names',
  },
  search: {
    'listings/listings.queries.ts':
      "StoredListing (a type): the listing caches keep a listing's stored answer by id",
  },
  shelf: {
    'listings/listings.repository.ts':
      'findListingByIdempotencyKey: a repeated publish finds the listing made',
    'listings/listings.service.ts':
      'createListing, LISTING_CREATE_LIMIT: each listing made with every rule and limit of a single create',
    'listings/listing-deps.ts': 'listingDeps: what that create uses, from the app',
  },
  sso: {
    'accounts/current-user.ts': 'toCurrentUser: the session answer',
    'accounts/password.ts': 'hashPassword: the unusable password of a new account',
  },
  uploads: {
    'images/image-processing.ts': 'processImage: a finished tus upload becomes an image',
    'images/images.repository.ts':
      'findImage, findOwnImage, insertUploadingImage, claimImageForProcessing, markImageReady: the images row of an upload',
  },
};

/** One zone a feature folder: it may import only itself, the shared core and the files listed for it. */
const featureZones = (root, features, exceptions = {}, core = {}) =>
  features.map((feature) => ({
    target: `${root}/${feature}`,
    from: root,
    except: [
      `./${feature}`,
      ...Object.keys(core).map((file) => `./${file}`),
      ...Object.keys(exceptions[feature] ?? {}).map((file) => `./${file}`),
    ],
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
            ),
          ],
        },
      ],
    },
  },
  prettier,
);
