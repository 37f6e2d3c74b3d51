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
  const answer = await buyer.api.post<{ conversationId: string }>('/api/conversations', {
    listingId: listing._id,
    text: 'Hi! Is this still available? See https://example.com/notes for my question.',
  });
  return answer.conversationId;
}

export interface RoutePage {
  name: string;
  as: 'visitor' | 'seller' | 'buyer';
  path(data: RoutePageData): string;
  ready(page: Page): Locator;
  /** The style guide shows the 'Loading...' state on purpose. */
  showsLoading?: boolean;
  /** Something to do once the page has settled (open a list, a dialog). */
  then?(page: Page): Promise<void>;
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, name });

/** Every page of the route table (spec section 2), signed out and signed in. */
export const ROUTE_PAGES: readonly RoutePage[] = [
  { name: 'home', as: 'visitor', path: () => '/', ready: (p) => p.getByText('Recent Additions') },
  { name: 'sign-in', as: 'visitor', path: () => '/sign-in', ready: heading('Sign In') },
  { name: 'sign-up', as: 'visitor', path: () => '/sign-up', ready: heading(/Welcome to/) },
  { name: 'about', as: 'visitor', path: () => '/about', ready: heading(/About/) },
  { name: 'my-courses', as: 'visitor', path: () => '/my-courses', ready: heading('My courses') },
  {
    name: 'search',
    as: 'visitor',
    path: () => '/search',
    ready: (p) => p.getByRole('region', { name: 'Listing results' }).getByRole('listitem'),
  },
  {
    name: 'search-empty',
    as: 'visitor',
    path: () => '/search?searchTerm=qqqqqqqqqqq',
    ready: (p) => p.getByText('No listing found!'),
  },
  {
    name: 'listing',
    as: 'visitor',
    path: (d) => `/listing/${d.listing._id}`,
    ready: (p) => p.getByRole('link', { name: 'Sign In to Contact Seller' }),
  },
  {
    name: 'contact-seller-signed-out',
    as: 'visitor',
    path: (d) => `/contact-seller/${d.seller.id}`,
    ready: (p) => p.getByRole('link', { name: 'Sign in to continue' }),
  },
  {
    name: 'groupme-instructions',
    as: 'visitor',
    path: () => '/groupme-instructions',
    ready: heading(/GroupMe/i),
  },
  {
    name: 'forgot-password',
    as: 'visitor',
    path: () => '/forgot-password',
    ready: heading('Forgot Password'),
  },
  {
    name: 'reset-password',
    as: 'visitor',
    path: () => '/reset-password/some-token',
    ready: heading('Reset Password'),
  },
  {
    name: 'verify-email-invalid',
    as: 'visitor',
    path: () => '/verify-email/not-a-token',
    ready: (p) => p.getByRole('alert'),
  },
  {
    name: 'how-to-sell',
    as: 'visitor',
    path: () => '/under-construction',
    ready: (p) => p.getByRole('heading', { name: /How to sell a book/i }),
  },
  {
    name: 'component-preview',
    as: 'visitor',
    path: () => '/component-preview',
    ready: (p) => p.getByRole('heading', { level: 1 }),
    showsLoading: true,
  },
  { name: 'not-found', as: 'visitor', path: () => '/404', ready: heading('Uh-Oh! Page Not Found') },
  {
    name: 'home-signed-in',
    as: 'buyer',
    path: () => '/',
    ready: (p) => p.getByText('Recent Additions'),
  },
  {
    name: 'listing-buyer',
    as: 'buyer',
    path: (d) => `/listing/${d.listing._id}`,
    ready: (p) => p.getByRole('link', { name: 'Message seller' }),
  },
  {
    name: 'listing-owner',
    as: 'seller',
    path: (d) => `/listing/${d.listing._id}`,
    ready: (p) => p.getByRole('button', { name: 'Your Listing' }),
  },
  {
    name: 'contact-seller',
    as: 'buyer',
    path: (d) => `/contact-seller/${d.seller.id}`,
    ready: heading('Great Choice!'),
  },
  {
    name: 'profile',
    as: 'seller',
    path: () => '/profile',
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
    as: 'seller',
    path: () => '/profile',
    ready: heading('Profile'),
    then: async (page) => {
      await page.getByRole('button', { name: 'Delete account' }).click();
      await expect(page.getByRole('dialog', { name: 'Delete your account?' })).toBeVisible();
    },
  },
  {
    name: 'create-listing',
    as: 'seller',
    path: () => '/create-listing',
    ready: heading('Create a Listing'),
  },
  {
    name: 'sell-my-shelf',
    as: 'seller',
    path: () => '/sell-my-shelf',
    ready: heading('Sell my shelf'),
  },
  {
    name: 'update-listing',
    as: 'seller',
    path: (d) => `/update-listing/${d.listing._id}`,
    ready: (p) => p.getByRole('button', { name: 'Update listing' }),
  },
  {
    name: 'messages',
    as: 'seller',
    path: () => '/messages',
    ready: (p) => p.getByRole('link', { name: /introduction to/i }),
  },
  {
    name: 'conversation',
    as: 'buyer',
    path: (d) => `/messages/${d.conversationId}`,
    ready: (p) => p.getByRole('log', { name: 'Messages' }).getByText(/Is this still available/),
  },
  {
    name: 'ratings',
    as: 'buyer',
    path: () => '/ratings',
    ready: heading('Rate your exchanges'),
  },
  {
    name: 'public-profile',
    as: 'buyer',
    path: (d) => `/u/${d.seller.id}`,
    ready: (p) => p.getByRole('heading', { name: 'On sale now' }),
  },
  {
    name: 'update-listing-not-owner',
    as: 'buyer',
    path: (d) => `/update-listing/${d.listing._id}`,
    ready: (p) => p.getByText("This isn't your listing"),
  },
];

/** Opens the route page as its viewer: a visitor goes there, a seller or buyer signs in first. */
export async function openRoutePage(
  page: Page,
  routePage: RoutePage,
  data: RoutePageData,
): Promise<void> {
  const path = routePage.path(data);
  if (routePage.as === 'visitor') await page.goto(path);
  else await signInBrowser(page, routePage.as === 'seller' ? data.seller : data.buyer, path);
}
