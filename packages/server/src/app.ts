import { setActiveCampus } from '@campus-books/common/active-campus';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { campusAwareConfig } from './campuses/campus-app-config';
import { currentCampusWork } from './campuses/campus-context';
import consortiumPlugin from './campuses/campus-consortium';
import campusRoutingPlugin, { type CampusRouting } from './campuses/campus-routing';
import type { Config } from './config/config';
import { configurePasswordThreads } from './features/accounts/password';
import type { Database } from './db/database';
import { AccessLog } from './lib/access-log';
import adminRoutes from './features/admin/admin.routes';
import alertJobsPlugin from './features/alerts/alerts.delivery';
import alertsRoutes from './features/alerts/alerts.routes';
import myCoursesRoutes from './features/my-courses/my-courses.routes';
import authRoutes from './features/accounts/auth.routes';
import userRoutes from './features/accounts/user.routes';
import booksRoutes from './features/books/books.routes';
import configRoutes, { publicConfig } from './features/config/config.routes';
import blocksRoutes from './features/conversations/blocks.routes';
import conversationReportRoutes from './features/conversations/conversation-reports.routes';
import conversationsRoutes from './features/conversations/conversations.routes';
import meetupMailsPlugin from './features/meetups/meetup-mails';
import meetupsRoutes from './features/meetups/meetups.routes';
import ratingPromptsPlugin from './features/ratings/rating-prompts';
import ratingsRoutes, { profileRoutes } from './features/ratings/ratings.routes';
import holdExpiryPlugin from './features/conversations/hold-expiry';
import messageMailsPlugin from './features/conversations/message-mails';
import messagePhotosRoutes from './features/conversations/message-photos.routes';
import receiptsRoutes from './features/conversations/receipts.routes';
import offerSetsRoutes, { listingBundleRoutes } from './features/conversations/offer-sets.routes';
import conversationStreamRoutes from './features/conversations/stream.routes';
import coursesRoutes from './features/courses/courses.routes';
import { coursePageData } from './features/courses/courses.service';
import docsRoutes from './features/docs/docs.routes';
import healthRoutes from './features/health/health.routes';
import listingCachesPlugin from './features/search/listing-caches';
import listingExpiryPlugin from './features/listings/listing-expiry';
import { findListingPageHead } from './features/listings/listing-page-meta';
import { listingDeps } from './features/listings/listing-deps';
import { listingPageData } from './features/listings/listing-pages';
import listingLinkRoutes from './features/listings/listing-links.routes';
import moderationRoutes from './features/moderation/moderation.routes';
import { isModerator } from './features/moderation/moderators';
import reportRoutes from './features/moderation/reports.routes';
import listingRoutes from './features/listings/listings.routes';
import { homePageData, searchPageData } from './features/search/search-pages';
import searchRoutes from './features/search/search.routes';
import { searchDeps } from './features/search/search.service';
import imageJobsPlugin from './features/images/images.jobs';
import pushPlugin from './features/push/push.jobs';
import pushRoutes from './features/push/push.routes';
import mailDigestPlugin from './features/notifications/digest';
import notificationsRoutes from './features/notifications/notifications.routes';
import dataExportRoutes from './features/privacy/data-export.routes';
import privacyRoutes, { privacyPageData } from './features/privacy/privacy.routes';
import retentionPlugin from './features/privacy/retention';
import imagesRoutes from './features/images/images.routes';
import uploadRoutes from './features/uploads/uploads.routes';
import { findSavedListings } from './features/saved/saved.repository';
import savedRoutes from './features/saved/saved.routes';
import draftsRoutes from './features/shelf/drafts.routes';
import termEndRoutes from './features/shelf/term-end.routes';
import termEndMailPlugin from './features/shelf/term-end-mail';
import statisticsRoutes from './features/statistics/statistics.routes';
import ssoRoutes from './features/sso/sso.routes';
import { toCurrentUser } from './features/accounts/current-user';
import apiDocsPlugin from './plugins/api-docs';
import compressionPlugin from './plugins/compression';
import databasePlugin from './plugins/database';
import errorsPlugin, { sendFrameworkError, sendRouteNotFound } from './plugins/errors';
import jobsPlugin, { type JobsPluginOptions } from './plugins/jobs';
import mailPlugin from './plugins/mail';
import metricsPlugin from './plugins/metrics';
import nulGuardPlugin from './plugins/nul-guard';
import rateLimitPlugin from './plugins/rate-limit';
import sameOriginPlugin from './plugins/same-origin';
import searchMissesPlugin from './plugins/search-misses';
import securityHeadersPlugin from './plugins/security-headers';
import sessionsPlugin from './plugins/sessions';
import storagePlugin from './plugins/storage';
import webPlugin from './plugins/web';

/** A signed-out page is rendered again after a minute even if the catalogue did not change (its demand line). */
const PAGE_CACHE_TTL_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** `draining`: the process is stopping (SIGTERM); /api/health answers 503 so balancers leave it. */
    lifecycle: { draining: boolean };
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Serve the built web app (production); tests of the API leave it off. */
  serveWeb?: boolean;
  /** Folder of the built web app, when not packages/web/dist (tests of the web shell). */
  webDistDir?: string;
  /** The web app's server build, when not beside packages/web/dist (tests of server rendering). */
  webServerEntry?: string;
  /** The background jobs' clock and polling (tests: an injected clock, no polling). */
  jobs?: JobsPluginOptions;
  /** Signed-out pages' clock, epoch milliseconds (tests): their times and their render time. */
  pageClock?: () => number;
  /**
   * A many-campus installation's host routing (campuses/campus-installation.ts, decision 024): each
   * request is served as its host's campus. Absent: the one campus of `config` (no directory).
   */
  campuses?: CampusRouting;
}

const BODY_LIMIT_BYTES = 256 * 1024;
const MAX_PARAM_LENGTH = 16 * 1024;

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
/**
 * Zod validates and serializes every schema: handing Fastify these compilers up front spares it
 * loading its default ones (Ajv, fast-json-stringify), a large share of the start-up time. (Fastify
 * types the factories for Ajv's compilers, hence the cast.)
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as CompilersFactory;

/** The whole server as one Fastify instance, testable with `app.inject` and no port. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  // The campus every schema's campus rule and every list reads (common/src/active-campus.ts): the
  // request's campus in a many-campus installation (outside a request, the configured one).
  const processCampus = options.config.campus;
  setActiveCampus(
    options.campuses ? () => currentCampusWork()?.config ?? processCampus : processCampus,
  );
  const app = Fastify({
    logger: options.logger ?? false,
    // One access log line a request, when its answer is done (lib/access-log.ts).
    logController: new AccessLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: options.config.trustProxy,
    // Above any path Node's HTTP parser lets in (its 16 KiB header limit counts the request line):
    // every path parameter reaches its route, whose own checks answer a long one as documented
    // (an invalid link or token, an unknown id). No route has a regular-expression parameter.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: sendFrameworkError,
    genReqId: () => crypto.randomUUID(),
    // A cold start on a busy machine loads the server-rendered pages' code in the web plugin: give
    // it a minute rather than Fastify's 10 s, so a slow start is slow, not a crash loop.
    pluginTimeout: 60_000,
    schemaController: { compilersFactory: zodCompilers },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: an HTML form post (urlencoded, multipart, text/plain) gets 415 and changes nothing.
  app.removeContentTypeParser('text/plain');

  // Several campuses: each read of app.config answers as the request's campus (decision 024).
  app.decorate('config', options.campuses ? campusAwareConfig(options.config) : options.config);
  configurePasswordThreads({ nice: options.config.passwordThreadNice });
  app.decorate('lifecycle', { draining: false });
  await app.register(errorsPlugin);
  // Before every other hook: a request's campus is known (or its host refused) before any work.
  if (options.campuses) await app.register(campusRoutingPlugin, { routing: options.campuses });
  // Which campuses the request's campus shares with (none without a directory): app.consortium.
  await app.register(consortiumPlugin, { routing: options.campuses });
  // Before any route: it records each route's schemas for /api/openapi.json.
  await app.register(apiDocsPlugin);
  // First of the hooks: even an answer refused by a later one carries the headers.
  await app.register(securityHeadersPlugin);
  await app.register(compressionPlugin);
  await app.register(nulGuardPlugin);
  await app.register(databasePlugin, { database: options.database });
  await app.register(jobsPlugin, {
    ...options.jobs,
    campuses: options.campuses?.campuses,
    watch: options.campuses?.watch,
  });
  await app.register(listingCachesPlugin);
  await app.register(searchMissesPlugin);
  await app.register(cookie);
  await app.register(sameOriginPlugin);
  await app.register(sessionsPlugin);
  await app.register(mailPlugin);
  // GET /metrics when METRICS=on; its request timing hook covers every route registered after it.
  await app.register(metricsPlugin);
  await app.register(rateLimitPlugin, { campuses: options.campuses?.campuses });
  await app.register(storagePlugin, { perCampus: Boolean(options.campuses) });
  // Scheduled and background work (app.jobs), run by one app server per job.
  await app.register(listingExpiryPlugin);
  await app.register(alertJobsPlugin);
  await app.register(imageJobsPlugin);
  await app.register(retentionPlugin);
  await app.register(holdExpiryPlugin);
  await app.register(messageMailsPlugin);
  await app.register(ratingPromptsPlugin);
  await app.register(meetupMailsPlugin);
  await app.register(termEndMailPlugin);
  await app.register(pushPlugin);
  await app.register(mailDigestPlugin);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(configRoutes);
      await api.register(privacyRoutes);
      await api.register(authRoutes, { prefix: '/auth' });
      await api.register(userRoutes, { prefix: '/user' });
      await api.register(searchRoutes, { prefix: '/listing' });
      await api.register(listingRoutes, { prefix: '/listing' });
      await api.register(uploadRoutes, { prefix: '/uploads' });
      await api.register(imagesRoutes, { prefix: '/images' });
      await api.register(adminRoutes, { prefix: '/admin' });
      await api.register(booksRoutes, { prefix: '/books' });
      await api.register(coursesRoutes, { prefix: '/course' });
      await api.register(alertsRoutes, { prefix: '/alerts' });
      await api.register(myCoursesRoutes, { prefix: '/my-courses' });
      await api.register(savedRoutes, { prefix: '/saved' });
      await api.register(draftsRoutes, { prefix: '/drafts' });
      await api.register(termEndRoutes, { prefix: '/term-end-mail' });
      await api.register(listingLinkRoutes, { prefix: '/listing-link' });
      await api.register(reportRoutes, { prefix: '/reports' });
      await api.register(moderationRoutes, { prefix: '/moderation' });
      await api.register(conversationReportRoutes, { prefix: '/moderation/conversations' });
      await api.register(statisticsRoutes, { prefix: '/statistics' });
      await api.register(dataExportRoutes, { prefix: '/data-export' });
      await api.register(conversationsRoutes, { prefix: '/conversations' });
      await api.register(conversationStreamRoutes, {
        prefix: '/conversations',
        campuses: options.campuses?.campuses,
        watch: options.campuses?.watch,
      });
      await api.register(messagePhotosRoutes, { prefix: '/conversations' });
      await api.register(receiptsRoutes, { prefix: '/conversations' });
      await api.register(offerSetsRoutes, { prefix: '/conversations' });
      await api.register(listingBundleRoutes, { prefix: '/listing' });
      await api.register(blocksRoutes, { prefix: '/blocks' });
      await api.register(ratingsRoutes, { prefix: '/ratings' });
      await api.register(profileRoutes, { prefix: '/profiles' });
      await api.register(meetupsRoutes, { prefix: '/meetups' });
      await api.register(pushRoutes, { prefix: '/push' });
      await api.register(notificationsRoutes, { prefix: '/notifications' });
      // Campuses: each its own provider or none (its sign-on routes answer 404).
      if (options.config.sso || options.campuses)
        await api.register(ssoRoutes, { prefix: '/sso', campuses: options.campuses?.campuses });
      await api.register(docsRoutes);
      api.setNotFoundHandler(sendRouteNotFound);
    },
    { prefix: '/api' },
  );

  if (options.serveWeb)
    await app.register(webPlugin, {
      distDir: options.webDistDir,
      listingPageHead: findListingPageHead,
      serverRendering: {
        entry: options.webServerEntry,
        loaders: {
          home: (app) => homePageData(searchDeps(app)),
          search: (app, page) => searchPageData(searchDeps(app), page),
          listing: (app, page, request) =>
            listingPageData({ ...listingDeps(app), search: searchDeps(app) }, page, request),
          course: coursePageData,
          // The policy pages: nothing to load but what the privacy page states.
          about: async () => ({ kind: 'about' }),
          privacy: privacyPageData,
        },
        currentUser: async (app, request) => {
          const session = await app.sessions.read(request);
          return session
            ? toCurrentUser(session.user, isModerator(app.config.trust, session.user))
            : null;
        },
        savedListings: (app, userId) => findSavedListings(app.database.db, userId),
        publicConfig,
        pageCache: {
          // Each campus's pages are its own, within this budget, in the room they share (024).
          maxBytes: options.config.pageCacheBytes,
          room: app.listingCaches.room,
          ttlMs: PAGE_CACHE_TTL_MS,
          generation: () => app.listingCaches.generation(),
          ensureFresh: (since) => app.listingCaches.ensureFresh(since),
          ...(options.pageClock ? { now: options.pageClock } : {}),
        },
      },
    });
  else app.setNotFoundHandler(sendRouteNotFound);
  return app;
}
