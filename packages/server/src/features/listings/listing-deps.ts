import type { FastifyInstance } from 'fastify';
import type { TrustConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { Jobs } from '../../jobs/jobs';
import type { Sessions } from '../../plugins/sessions';
import type { ImageDeps } from '../images/images.service';
import type { ListingCaches } from '../search/listing-caches';

/**
 * What the listing rules use: the database, the clock, the trust settings (a new listing's expiry,
 * who moderates), the jobs written with a listing (alerts, savers), the images pipeline, the
 * listing caches a write empties, and the sessions that say who is asking.
 */
export interface ListingDeps {
  db: Db;
  now: () => Date;
  trust: TrustConfig;
  jobs: Pick<Jobs, 'enqueue'>;
  images: ImageDeps;
  caches: ListingCaches;
  sessions: Pick<Sessions, 'read'>;
}

/** The listing rules' dependencies, from the app that serves them (built where they are used). */
export function listingDeps(app: FastifyInstance): ListingDeps {
  return {
    db: app.database.db,
    now: () => app.jobs.now(),
    // Read at each use: the request's campus's term ends and moderators (decision 024).
    get trust() {
      return app.config.trust;
    },
    jobs: app.jobs,
    images: app.images,
    caches: app.listingCaches,
    sessions: app.sessions,
  };
}
