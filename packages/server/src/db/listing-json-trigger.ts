import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn } from 'drizzle-orm/pg-core';
import { activeCampus, type Campus } from '@campus-books/common/active-campus';
import { listingSchema } from '@campus-books/common/listing.schemas';
import { inSchema } from '../campuses/campus-schema';
import type { Db } from './db-type';
import { textLiteral } from './literal';
import { rowsOf } from './rows';
import { listings } from './schema';

/** A timestamp as `Date.prototype.toISOString` writes it: UTC, milliseconds (truncated), `Z`. */
const isoTime = (column: PgColumn) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const hasSchool = (flag: string) => sql`${textLiteral(flag)} = ANY(${listings.schools})`;

/**
 * Each field of the listing answer as the database computes it from a `listings` row: the same
 * values `toListing` (listing.serializer.ts) gives, which listing-json-trigger.test.ts holds it to.
 * The campus's schools are written in as literals (a campus that renames one rewrites every JSON at
 * the next start: ensureListingJson).
 */
const fieldsOf = (campus: Campus) =>
  ({
    _id: sql`${listings.id}`,
    name: sql`${listings.name}`,
    courseNumber: sql`${listings.courseNumber}`,
    description: sql`${listings.description}`,
    address: sql`${listings.address}`,
    pickupLocation: sql`${listings.pickupLocation}`,
    condition: sql`${listings.condition}`,
    regularPrice: sql`${listings.regularPrice}::float8`,
    discountPrice: sql`${listings.discountPrice}::float8`,
    imageUrls: sql`${listings.imageUrls}`,
    // The chosen keys in the campus's order (stored so); array_remove drops the NULLs of the others.
    schools: sql`to_json(array_remove(ARRAY[${sql.join(
      [
        sql`NULL::text`,
        ...campus.schools.map(
          (s) => sql`CASE WHEN ${hasSchool(s.key)} THEN ${textLiteral(s.key)} END`,
        ),
      ],
      sql`, `,
    )}], NULL))`,
    // The chosen schools' labels in the campus's order; concat_ws skips the NULLs of the others.
    school: sql`concat_ws(', ', ${sql.join(
      [
        sql`NULL::text`,
        ...campus.schools.map(
          (s) => sql`CASE WHEN ${hasSchool(s.key)} THEN ${textLiteral(s.label)} END`,
        ),
      ],
      sql`, `,
    )})`,
    major: sql`${listings.major}`,
    type: sql`${listings.type}`,
    userRef: sql`${listings.userId}`,
    status: sql`${listings.status}`,
    createdAt: isoTime(listings.createdAt),
    updatedAt: isoTime(listings.updatedAt),
    isbn: sql`${listings.isbn}`,
    authors: sql`${listings.authors}`,
    edition: sql`${listings.edition}`,
    subject: sql`${listings.subject}`,
    publisherCover: sql`${listings.publisherCoverUrl}`,
    expiresAt: isoTime(listings.expiresAt),
    confirmedAt: isoTime(listings.confirmedAt),
    pendingUntil: isoTime(listings.heldUntil),
  }) satisfies Record<keyof typeof listingSchema.shape, SQL>;

/**
 * A listing's answer as JSON text computed from its `listings` row, in the schema's field order:
 * what `JSON.stringify(toListing(row))` would give. Only the schema's fields are named, so no other
 * column leaves the server. The keys (the schema's own identifiers) and the campus's schools are
 * written as literals, not parameters: the expression has none.
 */
export function listingJsonOfRow(campus: Campus = activeCampus()): SQL<string> {
  const fields = fieldsOf(campus);
  const pairs = [
    ...Object.keys(listingSchema.shape).map(
      (key) => sql`${identifier(key)}, ${fields[key as keyof typeof fields]}`,
    ),
    // The seed's one boolean per school, after the schema's fields (as the schema's parse keeps
    // them); foldSchoolFlags reads them on the way in.
    ...campus.schools.map((s) => sql`${identifier(s.key)}, ${hasSchool(s.key)}`),
  ];
  return sql<string>`json_build_object(${sql.join(pairs, sql`, `)})::text`;
}

/** A field name written as a literal: only identifiers (the schema's and the campus's keys). */
function identifier(key: string): SQL {
  if (!/^[A-Za-z_][\w-]*$/.test(key)) throw new Error(`listing field ${key} is not an identifier`);
  return sql.raw(`'${key}'`);
}

const FUNCTION = 'public.listing_json(public.listings)';

/**
 * The statements that make the database write `listings.listing_json` on every insert and update:
 * a function of the row holding the expression above (its column references read the argument,
 * named like the table), and a row trigger calling it. The fingerprint names this version of them.
 */
export function listingJsonDefinition(): { statements: string[]; fingerprint: string } {
  const { sql: expression, params } = new PgDialect().sqlToQuery(listingJsonOfRow());
  if (params.length > 0) throw new Error('the listing JSON expression must have no parameters');
  const statements = [
    `CREATE OR REPLACE FUNCTION public.listing_json(listings public.listings)
      RETURNS text LANGUAGE sql STABLE AS $listing_json$ SELECT ${expression} $listing_json$`,
    `CREATE OR REPLACE FUNCTION public.listings_write_json() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.listing_json := public.listing_json(NEW);
        RETURN NEW;
      END
      $$`,
    `CREATE OR REPLACE TRIGGER listings_write_json BEFORE INSERT OR UPDATE ON public.listings
      FOR EACH ROW EXECUTE FUNCTION public.listings_write_json()`,
  ];
  const fingerprint = createHash('sha256').update(statements.join(';\n')).digest('hex');
  return { statements, fingerprint };
}

/**
 * Brings the database's listing JSON in step with this code, after the migrations and under their
 * lock: when the function it holds is of another version (none yet, a new field, a campus that
 * renamed a school), defines it, and rewrites the JSON of every listing whose text differs, in one
 * transaction. A start with the same code reads one comment and does nothing more.
 */
export async function ensureListingJson(db: Db, schema = 'public'): Promise<void> {
  const { statements, fingerprint } = listingJsonDefinition();
  // A campus schema's own (decision 024); its listings table is the one its search path names.
  const fn = inSchema(FUNCTION, schema);
  const [current] = await rowsOf<{ fingerprint: string | null }>(
    db,
    sql`SELECT obj_description(to_regprocedure(${fn}), 'pg_proc') AS fingerprint`,
  );
  if (current?.fingerprint === fingerprint) return;
  await db.transaction(async (tx) => {
    for (const statement of statements) await tx.execute(sql.raw(inSchema(statement, schema)));
    await tx.execute(sql.raw(`COMMENT ON FUNCTION ${fn} IS '${fingerprint}'`));
    // The row trigger just defined writes each text; the condition skips the rows already right.
    await tx.execute(
      sql`UPDATE ${listings} SET listing_json = NULL
          WHERE listing_json IS DISTINCT FROM ${sql.raw(inSchema('public.listing_json', schema))}(${listings})`,
    );
  });
}
