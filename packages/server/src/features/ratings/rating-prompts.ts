import { formatDays } from '@campus-books/common/durations';
import { webPaths } from '@campus-books/common/paths';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { kindUnsubscribe } from '../alerts/unsubscribe-token';
import { deliverMail } from '../notifications/deliver';
import { claimUnpromptedExchanges } from './ratings.repository';
import { revealDaysOf } from './ratings.service';

type Exchange = Awaited<ReturnType<typeof claimUnpromptedExchanges>>[number];
const seller = (e: Exchange) => ({ id: e.seller_id, email: e.seller_email });
const buyer = (e: Exchange) => ({ id: e.buyer_id, email: e.buyer_email });

/**
 * The recurring rating-prompts job (every RATING_PROMPT_CHECK_MS, one server per slot): each new
 * exchange's two students get one mail asking them to rate it. An exchange is claimed before its
 * mails go, so each is asked once, whichever server runs the job.
 */
export default fp(
  async function ratingPromptsPlugin(app: FastifyInstance) {
    app.jobs.register(
      'rating-prompts',
      async ({ now }) => {
        const link = `${app.config.publicUrl}${webPaths.ratings.href()}`;
        const deliverDeps = { db: app.database.db, mailer: app.mailer };
        for (const exchange of await claimUnpromptedExchanges(app.database.db, now)) {
          const sides = [
            { ...seller(exchange), other: exchange.buyer_username, role: 'sold' },
            { ...buyer(exchange), other: exchange.seller_username, role: 'bought' },
          ];
          for (const side of sides) {
            if (!side.email || !side.other || !side.id) continue;
            const stop = kindUnsubscribe(app.config, side.id, 'ratings', now);
            const recipient = { id: side.id, email: side.email };
            await deliverMail(
              deliverDeps,
              recipient,
              'ratings',
              {
                subject: `How did it go? Rate your exchange of "${exchange.listing_name}"`,
                text: [
                  `You ${side.role} "${exchange.listing_name}" ${side.role === 'sold' ? 'to' : 'from'} ${side.other}.`,
                  '',
                  'Tell other students how the exchange went: thumbs up or down, a few tags, a comment if you like.',
                  `Neither of you sees the other rating until both have rated, or ${formatDays(revealDaysOf(app.config.ratings))} have passed.`,
                  '',
                  `Rate it: ${link}`,
                  '',
                  `Stop mails asking for ratings: ${stop.link}`,
                ].join('\n'),
                headers: stop.headers,
              },
              now,
            );
          }
        }
      },
      { every: app.config.ratings.promptCheckMs },
    );
  },
  { name: 'rating-prompts', dependencies: ['jobs'] },
);
