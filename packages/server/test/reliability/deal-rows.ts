import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/database';
import { listings, users } from '../../src/db/schema';
import { hashPassword } from '../../src/features/accounts/password';

/**
 * A verified seller and buyer (school addresses of their own, the given password) and one listing of
 * the seller's, written straight to the database: what a conversation test behind a proxy starts from.
 */
export async function insertSellerBuyerAndListing(
  database: Database,
  lastName: string,
  password: string,
) {
  const passwordHash = await hashPassword(password);
  const [seller, buyer] = await database.db
    .insert(users)
    .values(
      ['seller', 'buyer'].map((who) => ({
        firstName: who,
        lastName,
        username: `${who} ${lastName.toLowerCase()}`,
        email: `${who}.${randomUUID().slice(0, 8)}@richmond.edu`,
        passwordHash,
        groupmelink: 'https://groupme.com/contact/1',
        emailVerifiedAt: new Date(),
      })),
    )
    .returning();
  const [listing] = await database.db
    .insert(listings)
    .values({
      userId: seller!.id,
      name: 'Linear Algebra',
      courseNumber: '221',
      condition: 'good',
      regularPrice: 30,
      imageUrls: ['https://images.example.edu/cover.jpg'],
    })
    .returning();
  return { seller: seller!, buyer: buyer!, listing: listing! };
}
