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
 * Each file a server feature imports from another feature, with what it takes and why, as
 * `feature: { 'other/file.ts': 'what: why' }`. Only these files may be imported across features
 * (the rest of the other feature stays private); each is a known exception, not a pattern to follow:
 * a new one is a decision to write here. A file no longer imported is taken out.
 */
const SERVER_FEATURE_IMPORTS = {
  accounts: {
    'images/images.repository.ts': 'imageIdsOfUser: a deleted account takes its images with it',
    'images/images.service.ts': 'claimImages, releaseImages, deleteImages: the avatar is an image',
    'listings/listing.serializer.ts': 'toListing: /api/user/listings/:id answers with listings',
    'listings/listings.service.ts': "listSellerListings: the seller's listings, visibility applied",
    'moderation/moderation.messages.ts': 'ACCOUNT_SUSPENDED: sign-in refuses suspended accounts',
    'moderation/moderators.ts': 'isModerator: the session answer says whether the user moderates',
    'listings/listings.repository.ts':
      "deleteListingsOfUser, idsOfListingsBy, keepDeletedForModerators, lockListingModeration: a deleted account's listings, those under report kept for the moderators, written by the listings' owner",
    'moderation/moderation.repository.ts':
      "logSellerDelete: a deleted account's listing kept under report gets its audit line",
  },
  alerts: {
    'accounts/users.repository.ts':
      "lockUserRow, isUniqueViolation: an alert's cap is counted under a lock on the user's row; setSavedListingMails, setMessageMails: an unsubscribe link also stops the saved-listing and unread-message mails, columns of users",
    'shelf/term-end.repository.ts':
      'setTermEndSubscription: an unsubscribe link also stops the end-of-term mail, written by its owner',
  },
  books: {
    'images/image-processing.ts':
      "processImage: a publisher's cover goes through the upload pipeline",
    'images/images.repository.ts': 'insertReadyImage: the processed cover is an images row',
    'images/images.service.ts':
      'imageFolder, UPLOAD_CAP, TOO_MANY_UPLOADS: stored and capped like uploads',
  },
  conversations: {
    'accounts/users.repository.ts':
      'setMessageMails: whether unread messages are mailed is a column of users, written by its owner',
    'listings/listings.repository.ts':
      "findListingById, holdListing, releaseListingHold, endDueHolds: a conversation's listing and its hold, written by the listings' owner",
    'listings/listings.service.ts':
      "getOwnListing, markListingSold: the seller's own listing, and its sale with every rule of a sale",
    'moderation/moderators.ts': 'moderatorHooks: reported conversations are read by the moderators',
    'alerts/unsubscribe-token.ts':
      'signUnsubscribeToken: the unread-message mails are unsubscribed like the alert mails',
    'moderation/moderation.repository.ts':
      "logModeratorAction: a moderator's read or dismissal of a reported conversation goes in the audit log",
  },
  courses: {
    'alerts/alerts.demand.ts': "pageDemand: a course's page carries its demand line's count",
    'listings/catalogue-kept.ts':
      "keptUntilCatalogueChanges: a course's answer kept as the search's answers are, emptied with them",
  },
  listings: {
    'alerts/alerts.delivery.ts':
      'enqueueListingEvent: a new, relisted or sold listing is news for alerts and savers',
    'alerts/alerts.demand.ts': "pageDemand: a listing's page carries its demand line's count",
    'images/images.service.ts':
      "claimImages, releaseImages, ImageDeps: a listing's photos are the seller's images",
    'moderation/moderation.repository.ts':
      "logSellerDelete: a seller's delete of a reported listing is in the audit log",
    'moderation/moderation.service.ts':
      'requestReview: a seller asks for a review of a hidden listing',
    'moderation/moderators.ts': 'isModerator: hidden listings show to moderators only',
  },
  meetups: {
    'conversations/conversations.service.ts':
      'getParticipantConversation, assertWritable, ConversationDeps: a meetup is suggested in a conversation, by its participants, unless either blocked the other',
  },
  moderation: {
    'listings/listing.serializer.ts': 'toListing: the queue shows the reported listings',
    'listings/listings.repository.ts':
      "isListingId, lockListingModeration, hideListingForReports, hideListingsOfSeller, unhideListings, removeListingForModerators, restoreRemovedListing, requestListingReview, deleteListingRow: a listing's moderation state is written by the listings' owner, under its lock",
    'listings/listings.service.ts':
      "LISTING_NOT_FOUND, releaseUnusedImages: a removed listing's answer and its images",
    'images/images.service.ts':
      "ImageDeps (a type): the actions release a deleted listing's images with what deletion uses",
    'accounts/users.repository.ts':
      'suspendUserRow, unsuspendUserRow: a suspension is a column of users, written by its owner',
  },
  'my-courses': {
    'accounts/users.repository.ts':
      'lockUserRow: "Notify me for everything" creates alerts under the lock on the student\'s row',
    'alerts/alerts.service.ts':
      "createAlert, toAlert: through the alerts' own create, with its rules",
    'courses/course-books.ts': 'normaliseTitle: books grouped as a course page groups them',
    'courses/required-books.repository.ts':
      "findRequiredBooks, inCourses: the required-books list of the student's courses",
    'listings/listing-visibility.ts': 'visibleTo, ListingViewer: the one visibility rule',
    'listings/catalogue-kept.ts':
      "keptUntilCatalogueChanges: the courses' books kept as the search's answers are, emptied with them",
    'listings/listings.service.ts': 'viewerOf: who is asking, for the visibility rule',
  },
  privacy: {
    'accounts/email-tokens.repository.ts':
      'deleteSpentEmailTokens: the retention policy deletes used and expired links through their owner',
  },
  ratings: {
    'listings/listing.serializer.ts': "toListing: a profile shows the student's listings on sale",
    'listings/listing-visibility.ts': 'visibleTo: the one visibility rule',
    'moderation/moderators.ts': 'moderatorHooks: moderators remove reported ratings',
    'moderation/moderation.repository.ts':
      "logModeratorAction: a rating's removal or dismissed reports go in moderation's audit log",
  },
  saved: {
    'listings/listing.serializer.ts':
      'toListing: saved listings are listings, serialised the same way',
    'listings/listings.repository.ts': 'isListingId: which listing a path names',
    'listings/listing-visibility.ts': 'visibleTo, ListingViewer: the one visibility rule',
    'listings/listings.service.ts': "LISTING_NOT_FOUND: the same answer as the listings' own",
    'accounts/users.repository.ts':
      'setSavedListingMails: whether saved listings are mailed is a column of users',
  },
  shelf: {
    'alerts/unsubscribe-token.ts':
      'signUnsubscribeToken: the end-of-term mail is unsubscribed like the alert mails',
    'images/images.service.ts':
      "claimImages, releaseImages: a draft's photos are claimed like a listing's",
    'listings/listing.serializer.ts': 'toListing: "Publish all" answers with the listings made',
    'listings/listings.repository.ts':
      'findListingByIdempotencyKey: a repeated publish finds the listing made',
    'listings/listings.service.ts':
      'createListing, LISTING_CREATE_LIMIT: each listing made with every rule and limit of a single create',
  },
  sso: {
    'accounts/current-user.ts': 'toCurrentUser: the session answer',
    'accounts/password.ts': 'hashPassword: the unusable password of a new account',
    'accounts/users.repository.ts':
      'findUserByEmail: sign-on signs into the account of that address; deleteUnverifiedUserByEmail, insertUserUnlessEmailTaken: a first sign-on replaces an unverified claim on the address with a verified account, written by the owner of users',
    'moderation/moderation.messages.ts': 'ACCOUNT_SUSPENDED: sign-on refuses suspended accounts',
    'moderation/moderators.ts': 'isModerator: the session answer says whether the user moderates',
  },
  statistics: {
    'moderation/moderators.ts': 'moderatorHooks: the statistics are for the campus moderators',
  },
  uploads: {
    'images/image-processing.ts': 'processImage: a finished tus upload becomes an image',
    'images/images.repository.ts':
      'findImage, findOwnImage, insertUploadingImage, claimImageForProcessing, markImageReady: the images row of an upload',
    'images/images.service.ts':
      'imageFolder, deleteImageIn, UPLOAD_CAP, TOO_MANY_UPLOADS: stored, deleted and capped as images',
  },
};

/** One zone a feature folder: it may import only itself (and the files listed for it). */
const featureZones = (root, features, exceptions = {}) =>
  features.map((feature) => ({
    target: `${root}/${feature}`,
    from: root,
    except: [`./${feature}`, ...Object.keys(exceptions[feature] ?? {}).map((file) => `./${file}`)],
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
            ),
          ],
        },
      ],
    },
  },
  prettier,
);
