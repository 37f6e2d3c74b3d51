import { expect, test as base } from './fixtures';
import { bookCover } from './images';
import { startConversation, type RoutePageData } from './route-pages';
import { createListing, createUser, deleteUser } from './users';

/** One seller with a listing and one buyer for every page of this file (per project). */
export const routePageTest = base.extend<object, { data: RoutePageData }>({
  data: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const seller = await createUser('pageseller');
      const buyer = await createUser('pagebuyer');
      const listing = await createListing(seller, {
        name: 'introduction to psychology',
        courseNumber: '101',
        condition: 'excellent',
        regularPrice: 1234.5,
        description: 'Ninth edition.\nSome highlighting in chapter 3.',
      });
      // Six photos, the most a listing holds: their thumbnails once made a phone page 440 px wide.
      const more = await Promise.all(
        [1, 2, 3, 4, 5].map(async (n) => seller.api.uploadImage(await bookCover(n * 60))),
      );
      const sixPhotos = await seller.api.call('POST /api/listing/update/:id', {
        params: { id: listing._id },
        body: { ...listing, imageUrls: [...listing.imageUrls, ...more] },
      });
      expect(sixPhotos.imageUrls).toHaveLength(6);
      const conversationId = await startConversation(buyer, sixPhotos);
      await use({ seller, buyer, listing: sixPhotos, conversationId });
      await deleteUser(seller);
      await deleteUser(buyer);
    },
    { scope: 'worker' },
  ],
});
