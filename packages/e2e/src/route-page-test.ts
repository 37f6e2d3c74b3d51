import { EMOJI, LONG_URL, longName, mixed, RTL, word } from './extreme-text';
import { expect, test as base } from './fixtures';
import { bookCover } from './images';
import type { RoutePageData } from './route-pages';
import { createListing, createUser, deleteUser } from './users';

/**
 * What every page of the route table shows (per project, once per worker), seeded through the API
 * with text at its extremes (extreme-text.ts) in every field a student types: a seller (a long name,
 * emoji, two scripts) with a listing of six photos, the most a listing holds (their thumbnails once
 * made a phone page 440 px wide), and one sold and rated by both; a buyer who wrote about the first,
 * offered, saved it, has alerts and courses; a third student who reported the listing and the
 * conversation.
 */
export const routePageTest = base.extend<object, { data: RoutePageData }>({
  data: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const seller = await createUser('pageseller');
      const buyer = await createUser('pagebuyer');
      const reporter = await createUser('pagereporter');
      for (const [user, first] of [
        [seller, 'Seller'],
        [buyer, 'Buyer'],
      ] as const) {
        user.username = longName(first);
        await user.api.call('POST /api/user/update/:id', {
          params: { id: user.id },
          body: { username: user.username },
        });
      }
      const fields = {
        subject: 'CHEM',
        courseNumber: '101',
        condition: 'excellent',
        regularPrice: 1234.5,
        edition: word(20),
        address: word(200),
        pickupLocation: `${EMOJI} ${RTL} ${word(150)}`,
        description: `${LONG_URL}\n${EMOJI} ${RTL}\n${word(2000 - LONG_URL.length - RTL.length - 20)}`,
      } as const;
      // The route table's markers look for "introduction to" in the title.
      const first = await createListing(seller, {
        ...fields,
        name: `introduction to ${word(46)}`,
      });
      const more = await Promise.all(
        [1, 2, 3, 4, 5].map(async (n) => seller.api.uploadImage(await bookCover(n * 60))),
      );
      const listing = await seller.api.call('POST /api/listing/update/:id', {
        params: { id: first._id },
        body: { ...first, imageUrls: [...first.imageUrls, ...more] },
      });
      expect(listing.imageUrls).toHaveLength(6);
      const sold = await createListing(seller, { ...fields, name: word(62) });

      const start = (listingId: string, text: string) =>
        buyer.api.call('POST /api/conversations', { body: { listingId, text } });
      const { conversationId } = await start(
        listing._id,
        `Is this still available? ${LONG_URL} ${EMOJI} ${RTL}`,
      );
      const params = { id: conversationId };
      const write = 'POST /api/conversations/:id/messages';
      await buyer.api.call(write, { params, body: { text: word(2000) } });
      await seller.api.call(write, { params, body: { text: mixed(400) } });
      await buyer.api.call('POST /api/conversations/:id/offers', { params, body: { amount: 10 } });

      // A sale of the second listing, rated by both with comments: the ratings show.
      await start(sold._id, mixed(300));
      await seller.api.call('POST /api/conversations/listing/:listingId/sold', {
        params: { listingId: sold._id },
        body: { buyerId: buyer.id },
      });
      for (const user of [buyer, seller]) {
        const { exchanges } = await user.api.call('GET /api/ratings/exchanges');
        await user.api.call('POST /api/ratings/exchanges/:id', {
          params: { id: exchanges[0]!.id },
          body: { positive: true, comment: mixed(500) },
        });
      }

      const alert = 'POST /api/alerts/create';
      await seller.api.call(alert, { body: { searchTerm: word(100) } });
      await buyer.api.call(alert, { body: { searchTerm: `${EMOJI} ${RTL}` } });
      await buyer.api.call('POST /api/saved/add/:id', { params: { id: listing._id } });
      await buyer.api.call('POST /api/my-courses/add', {
        body: { text: `CHEM 101, PSYC 101 ${word(300)}` },
      });
      const report = { reason: 'spam_or_scam', note: mixed(1000) } as const;
      await reporter.api.call('POST /api/reports/:listingId', {
        params: { listingId: listing._id },
        body: report,
      });
      await buyer.api.call('POST /api/conversations/:id/report', { params, body: report });

      await use({ seller, buyer, listing, conversationId });
      for (const user of [seller, buyer, reporter]) await deleteUser(user);
    },
    { scope: 'worker' },
  ],
});
