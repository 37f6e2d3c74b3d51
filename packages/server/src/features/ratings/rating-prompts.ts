import { formatDays } from '@campus-books/common/durations';
import { webPaths } from '@campus-books/common/paths';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { claimUnpromptedExchanges } from './ratings.repository';
import { revealDaysOf } from './ratings.service';

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
        for (const exchange of await claimUnpromptedExchanges(app.database.db, now)) {
          const sides = [
            { email: exchange.seller_email, other: exchange.buyer_username, role: 'sold' },
            { email: exchange.buyer_email, other: exchange.seller_username, role: 'bought' },
          ];
          for (const side of sides) {
            if (!side.email || !side.other) continue;
            await app.mailer.send({
              to: side.email,
              subject: `How did it go? Rate your exchange of "${exchange.listing_name}"`,
              text: [
                `You ${side.role} "${exchange.listing_name}" ${side.role === 'sold' ? 'to' : 'from'} ${side.other}.`,
                '',
                'Tell other students how the exchange went: thumbs up or down, a few tags, a comment if you like.',
                `Neither of you sees the other rating until both have rated, or ${formatDays(revealDaysOf(app.config.ratings))} have passed.`,
                '',
                `Rate it: ${link}`,
              ].join('\n'),
            });
          }
        }
      },
      { every: app.config.ratings.promptCheckMs },
    );
  },
  { name: 'rating-prompts', dependencies: ['jobs'] },
);
