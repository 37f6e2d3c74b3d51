import type { Listing } from '@campus-books/common/listing.schemas';
import type { Locator, Page } from '@playwright/test';
import { expect, signInBrowser } from './fixtures';
import type { TestUser } from './users';

/** What the pages of the route table show: a seller with a listing, and a buyer. */
export interface RoutePageData {
  seller: TestUser;
  buyer: TestUser;
  listing: Listing;
  /** The buyer's conversation with the seller about the listing. */
  conversationId: string;
}

/** The buyer writes to the seller about the listing: the conversation the messages pages show. */
export async function startConversation(buyer: TestUser, listing: Listing): Promise<string> {
  const answer = await buyer.api.call('POST /api/conversations', {
    body: {
      listingId: listing._id,
      text: 'Hi! Is this still available? See https://example.com/notes for my question.',
    },
  });
  return answer.conversationId;
}

export interface RoutePage {
  name: string;
  as: 'visitor' | 'seller' | 'buyer';
  /** The page's address, or how to make it from the data. */
  path: string | ((data: RoutePageData) => string);
  ready(page: Page): Locator;
  /** The style guide shows the 'Loading...' state on purpose. */
  showsLoading?: boolean;
  /** Something to do once the page has settled (open a list, a dialog). */
  then?(page: Page): Promise<void>;
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, name });
const text = (shown: string | RegExp) => (page: Page) => page.getByText(shown);
const link = (name: string | RegExp) => (page: Page) => page.getByRole('link', { name });
const button = (name: string) => (page: Page) => page.getByRole('button', { name });

/** The pages one viewer opens. */
const seenBy = (as: RoutePage['as'], pages: Omit<RoutePage, 'as'>[]): RoutePage[] =>
  pages.map((page) => ({ ...page, as }));

/** Every page of the route table (spec section 2), signed out and signed in. */
export const ROUTE_PAGES: readonly RoutePage[] = [
  ...seenBy('visitor', [
    { name: 'home', path: '/', ready: text('Recent Additions') },
    { name: 'sign-in', path: '/sign-in', ready: heading('Sign In') },
    { name: 'sign-up', path: '/sign-up', ready: heading(/Welcome to/) },
    { name: 'about', path: '/about', ready: heading(/About/) },
    { name: 'my-courses', path: '/my-courses', ready: heading('My courses') },
    {
      name: 'search',
      path: '/search',
      ready: (p) => p.getByRole('region', { name: 'Listing results' }).getByRole('listitem'),
    },
    {
      name: 'search-empty',
      path: '/search?searchTerm=qqqqqqqqqqq',
      ready: text('No listing found!'),
    },
    {
      name: 'listing',
      path: (d) => `/listing/${d.listing._id}`,
      ready: link('Sign In to Contact Seller'),
    },
    {
      name: 'contact-seller-signed-out',
      path: (d) => `/contact-seller/${d.seller.id}`,
      ready: link('Sign in to continue'),
    },
    { name: 'groupme-instructions', path: '/groupme-instructions', ready: heading(/GroupMe/i) },
    { name: 'forgot-password', path: '/forgot-password', ready: heading('Forgot Password') },
    {
      name: 'reset-password',
      path: '/reset-password/some-token',
      ready: heading('Reset Password'),
    },
    {
      name: 'verify-email-invalid',
      path: '/verify-email/not-a-token',
      ready: (p) => p.getByRole('alert'),
    },
    {
      name: 'how-to-sell',
      path: '/under-construction',
      ready: (p) => p.getByRole('heading', { name: /How to sell a book/i }),
    },
    {
      name: 'component-preview',
      path: '/component-preview',
      ready: (p) => p.getByRole('heading', { level: 1 }),
      showsLoading: true,
    },
    { name: 'not-found', path: '/404', ready: heading('Uh-Oh! Page Not Found') },
  ]),
  ...seenBy('seller', [
    {
      name: 'listing-owner',
      path: (d) => `/listing/${d.listing._id}`,
      ready: button('Your Listing'),
    },
    {
      name: 'profile',
      path: '/profile',
      ready: heading('Profile'),
      then: async (page) => {
        await page.getByRole('button', { name: 'My Listings' }).click();
        await expect(
          page.getByRole('region', { name: 'Your listings' }).getByRole('listitem'),
        ).not.toHaveCount(0);
      },
    },
    {
      name: 'profile-delete-dialog',
      path: '/profile',
      ready: heading('Profile'),
      then: async (page) => {
        await page.getByRole('button', { name: 'Delete account' }).click();
        await expect(page.getByRole('dialog', { name: 'Delete your account?' })).toBeVisible();
      },
    },
    { name: 'create-listing', path: '/create-listing', ready: heading('Create a Listing') },
    { name: 'sell-my-shelf', path: '/sell-my-shelf', ready: heading('Sell my shelf') },
    {
      name: 'update-listing',
      path: (d) => `/update-listing/${d.listing._id}`,
      ready: button('Update listing'),
    },
    { name: 'messages', path: '/messages', ready: link(/introduction to/i) },
  ]),
  ...seenBy('buyer', [
    { name: 'home-signed-in', path: '/', ready: text('Recent Additions') },
    {
      name: 'listing-buyer',
      path: (d) => `/listing/${d.listing._id}`,
      ready: link('Message seller'),
    },
    {
      name: 'contact-seller',
      path: (d) => `/contact-seller/${d.seller.id}`,
      ready: heading('Great Choice!'),
    },
    {
      name: 'conversation',
      path: (d) => `/messages/${d.conversationId}`,
      ready: (p) => p.getByRole('log', { name: 'Messages' }).getByText(/Is this still available/),
    },
    { name: 'ratings', path: '/ratings', ready: heading('Rate your exchanges') },
    { name: 'notifications', path: '/notifications', ready: heading('What reaches you') },
    {
      name: 'public-profile',
      path: (d) => `/u/${d.seller.id}`,
      ready: (p) => p.getByRole('heading', { name: 'On sale now' }),
    },
    {
      name: 'update-listing-not-owner',
      path: (d) => `/update-listing/${d.listing._id}`,
      ready: text("This isn't your listing"),
    },
  ]),
];

/** Opens the route page as its viewer: a visitor goes there, a seller or buyer signs in first. */
export async function openRoutePage(
  page: Page,
  routePage: RoutePage,
  data: RoutePageData,
): Promise<void> {
  const path = typeof routePage.path === 'string' ? routePage.path : routePage.path(data);
  if (routePage.as === 'visitor') await page.goto(path);
  else await signInBrowser(page, routePage.as === 'seller' ? data.seller : data.buyer, path);
}
