import { consortiumProblems, isSharing } from '@campus-books/common/campus-consortium';
import type { ListingCampus } from '@campus-books/common/consortium-listing';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { currentCampusWork, runInCampus, type CampusWork } from './campus-context';
import type { CampusRouting } from './campus-routing';

/** A campus the request's campus shares with: its work (to run as it) and how its listings are marked. */
export interface ConsortiumPartner {
  work: CampusWork;
  campus: ListingCampus;
}

/**
 * Consortium sharing (issue 45, decision 024): which campuses the campus of the work at hand shares
 * with. Two campuses share only when each one's file names the other (`consortium.share`); outside
 * any campus (a single-campus installation, the default campus) there is no partner.
 */
export interface Consortium {
  /** The partners of the work at hand's campus, in the directory's order. */
  partners(): ConsortiumPartner[];
  /** The school e-mail domains of those partners: their students may sign up on this campus. */
  partnerEmailDomains(): string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    consortium: Consortium;
  }
}

/** The campuses `campus` shares with among those served (both sides name each other). */
export function partnerWorksOf(campus: CampusWork, served: readonly CampusWork[]): CampusWork[] {
  // Most campuses share with nobody: their own list settles it without a look at the others.
  const named = campus.config.consortium?.share ?? [];
  if (named.length === 0) return [];
  return served.filter((other) => named.includes(other.key) && isSharing(campus, other));
}

/**
 * Decorates `app.consortium`. The partners are read from the routing's campuses at each call, so a
 * campus the directory adds or drops while serving is followed; each partner's address is its own
 * (`app.config.publicUrl` read as that campus: its file's publicUrl, else its first host).
 */
export default fp(
  async function consortiumPlugin(app: FastifyInstance, options: { routing?: CampusRouting }) {
    const routing = options.routing;
    const partnerWorks = (): CampusWork[] => {
      const work = currentCampusWork();
      return work && routing ? partnerWorksOf(work, routing.campuses) : [];
    };
    app.decorate('consortium', {
      partners: () =>
        partnerWorks().map((work) => ({
          work,
          campus: runInCampus(work, () => ({
            key: work.key,
            name: work.config.name,
            url: app.config.publicUrl,
          })),
        })),
      partnerEmailDomains: () =>
        partnerWorks().flatMap((work) =>
          work.config.emailDomain ? [work.config.emailDomain] : [],
        ),
    });
    // One side naming another shares nothing: said once at start, so the operator sees why.
    if (routing) {
      for (const problem of consortiumProblems(routing.campuses)) app.log.warn(problem);
    }
  },
  { name: 'consortium' },
);
