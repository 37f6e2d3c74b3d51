import { z } from 'zod';
import { apiSchemas } from './api';
import { listingSchema } from './listing.schemas';

/** The campus a partner's listing is on (consortium sharing, issue 45): where to view and ask for it. */
export const listingCampusSchema = z
  .object({
    key: z.string().describe("The campus's key in the installation"),
    name: z.string().describe('The university, as its students name it'),
    url: z
      .string()
      .describe(
        "The campus's address: the listing's page is `{url}/listing/{_id}`, on its own site",
      ),
  })
  .register(apiSchemas, { id: 'ListingCampus' });
export type ListingCampus = z.infer<typeof listingCampusSchema>;

/**
 * A listing in a search's answer: a listing of the campus asked, or, when that campus shares with
 * others (consortium sharing, both campuses opting in), a partner campus's active listing carrying
 * `campus`. A listing of the campus asked carries no `campus`.
 */
export const searchedListingSchema = listingSchema
  .extend({
    campus: listingCampusSchema
      .optional()
      .describe(
        "Only on a partner campus's listing: that campus. Viewing, messages and offers happen on its site.",
      ),
  })
  .register(apiSchemas, { id: 'SearchedListing' });
export type SearchedListing = z.infer<typeof searchedListingSchema>;
