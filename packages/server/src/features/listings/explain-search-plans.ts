/**
 * Reproduces docs/search-query-plans.md: loads 100,000 generated listings into a scratch database on
 * a PostgreSQL server, prints EXPLAIN ANALYZE of the search's main query shapes, then drops it.
 *   node --import tsx packages/server/src/features/listings/explain-search-plans.ts postgres://postgres@127.0.0.1:5432/postgres
 */
import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import pg from 'pg';
import { MAJORS } from '@campus-books/common/campus';
import type { ListingSearchQuery } from '@campus-books/common/listing.schemas';
import { openDatabase, type Db } from '../../db/database';
import { listings } from '../../db/schema';
import { findListingsQuery } from './listings.repository';
import { searchStatements } from './listings.search';

const LISTINGS = 100_000;
const SELLERS = 2_000;
const SUBJECTS = [
  'Calculus',
  'Linear Algebra',
  'Organic Chemistry',
  'General Chemistry',
  'Microeconomics',
  'Macroeconomics',
  'Statistics',
  'Psychology',
  'Cell Biology',
  'Genetics',
  'Physics',
  'World History',
  'American Government',
  'Financial Accounting',
  'Marketing',
  'Data Structures',
  'Algorithms',
  'Discrete Mathematics',
  'Sociology',
  'Philosophy',
  'Ethics',
  'Leadership',
  'Constitutional Law',
  'Spanish',
  'French',
  'Art History',
  'Music Theory',
  'Anthropology',
  'Neuroscience',
  'Public Health',
];
const PREFIXES = [
  '',
  'Introduction to ',
  'Principles of ',
  'Essentials of ',
  'Advanced ',
  'Foundations of ',
];

async function load(db: Db) {
  await db.execute(sql`
    INSERT INTO users (first_name, last_name, username, email, password_hash, groupmelink, email_verified_at)
    SELECT 'Seller', g::text, 'Seller ' || g, 'seller' || g || '@richmond.edu', 'x',
           'https://groupme.com/contact/' || g, now()
    FROM generate_series(1, ${SELLERS}) g`);
  // Independent random attributes (seeded, so a rerun loads the same catalogue).
  await db.execute(sql`SELECT setseed(0.42)`);
  await db.execute(sql`
    WITH sellers AS (SELECT array_agg(id) AS ids FROM users),
         words AS (SELECT ${sql.param(SUBJECTS)}::text[] AS subjects, ${sql.param(PREFIXES)}::text[] AS prefixes,
                          ${sql.param(MAJORS.map((m) => m.value))}::text[] AS majors)
    INSERT INTO listings (user_id, name, course_number, condition, regular_price, image_urls,
                          schools, major, type, status, created_at)
    SELECT ids[1 + floor(random() * ${SELLERS})::int],
           prefixes[1 + floor(random() * cardinality(prefixes))::int]
             || subjects[1 + floor(random() * cardinality(subjects))::int]
             || ' (' || (1 + floor(random() * 9)::int) || 'th edition)',
           (100 + floor(random() * 400)::int)::text,
           (ARRAY['mint','excellent','good','poor'])[1 + floor(random() * 4)::int],
           round((5 + random() * 295)::numeric, 2),
           ARRAY['https://images.example.edu/' || g || '.jpg'],
           CASE floor(random() * 5)::int WHEN 0 THEN ARRAY['Bschool'] WHEN 1 THEN ARRAY['ArtScience']
             WHEN 2 THEN ARRAY['Jepson', 'Leadership'] WHEN 3 THEN ARRAY['LawProfessional']
             ELSE ARRAY['ArtScience', 'Bschool'] END,
           majors[1 + floor(random() * cardinality(majors))::int],
           CASE WHEN random() < 0.05 THEN 'rent' ELSE 'sale' END,
           CASE WHEN random() < 0.1 THEN 'sold' ELSE 'active' END,
           now() - (random() * interval '730 days')
    FROM generate_series(1, ${LISTINGS}) g, sellers, words`);
  await db.execute(sql`ANALYZE`);
}

async function explain(db: Db, title: string, query: SQLWrapper) {
  const result = await db.execute<{ 'QUERY PLAN': string }>(
    sql`EXPLAIN (ANALYZE, BUFFERS) ${query}`,
  );
  const rows = (result as unknown as { rows: { 'QUERY PLAN': string }[] }).rows;
  console.log(`\n### ${title}\n\n\`\`\`\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\``);
}

async function main() {
  const adminUrl = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `cb_explain_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ engine: 'postgres', url: url.toString(), poolSize: 1 });
  try {
    const { db } = database;
    await load(db);
    const names = await db.select({ name: listings.name }).from(listings).limit(3);
    console.error(names.map((n) => n.name).join(' | '));
    const version = await db.execute<{ server_version: string }>(sql`SHOW server_version`);
    console.log(
      `PostgreSQL ${(version as unknown as { rows: { server_version: string }[] }).rows[0]?.server_version}`,
    );
    const [sample] = await db
      .select({ id: listings.id, userId: listings.userId })
      .from(listings)
      .limit(1);
    const shapes: [string, ListingSearchQuery][] = [
      ['Default search (home, /search with no filter)', {}],
      ['Name search: searchTerm=calculus', { searchTerm: 'calculus' }],
      ['Name search with a typo: searchTerm=calclus', { searchTerm: 'calclus' }],
      ['Two words, each misspelled: searchTerm=orgnic chemstry', { searchTerm: 'orgnic chemstry' }],
      [
        'Name search, explicit sort: searchTerm=calculus&sort=createdAt',
        { searchTerm: 'calculus', sort: 'createdAt' },
      ],
      [
        'condition + school + major, price sort',
        {
          condition: 'good',
          Bschool: 'true',
          major: 'Computer Science',
          sort: 'regularPrice',
          order: 'asc',
        },
      ],
      [
        'Price sort, no filter: sort=regularPrice&order=desc',
        { sort: 'regularPrice', order: 'desc' },
      ],
      ['Course number: courseNumber=211', { courseNumber: '211' }],
      ['Deep page: startIndex=900', { startIndex: 900 }],
    ];
    for (const [title, query] of shapes) {
      const statements = await searchStatements(db, query);
      for (const [i, statement] of statements.entries()) {
        const part =
          statements.length > 1 ? (i === 0 ? ' (best matches)' : ' (other matches)') : '';
        await explain(db, title + part, statement);
      }
    }
    await explain(
      db,
      "A seller's own listings: GET /api/user/listings/{id}",
      findListingsQuery(db, sample!.userId),
    );
    await explain(
      db,
      'By id: GET /api/listing/get/{id}',
      db.select().from(listings).where(eq(listings.id, sample!.id)),
    );
  } finally {
    await database.close();
    if (process.env.KEEP_DB) console.error(`kept ${url.toString()}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
