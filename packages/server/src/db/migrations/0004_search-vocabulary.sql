CREATE TABLE "listing_words" (
	"word" text PRIMARY KEY NOT NULL,
	"listings" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "listing_words_trgm_idx" ON "listing_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The distinct words of a listing name, as the search splits a term: lower case, runs of letters and
-- digits, 3 characters or more, in order (so rows are always locked in the same order).
CREATE FUNCTION listing_name_words(name text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(lower(name), '[^[:alnum:]]+') AS w
  WHERE length(w) >= 3 ORDER BY w
$$;
--> statement-breakpoint
-- Keeps listing_words counting the listings whose name holds each word (schema.ts listingWords).
-- Statement-level with transition tables: one upsert per statement, so a bulk insert (a restore, a
-- generated catalogue) costs one aggregate, not one upsert per row. Rows are upserted in word order,
-- so concurrent writers lock shared words in the same order.
CREATE FUNCTION listing_words_track() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_words (word, listings)
      SELECT w, count(*) FROM new_rows CROSS JOIN LATERAL listing_name_words(new_rows.name) AS w
      GROUP BY w ORDER BY w
      ON CONFLICT (word) DO UPDATE SET listings = listing_words.listings + EXCLUDED.listings;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO listing_words (word, listings)
      SELECT w, -count(*) FROM old_rows CROSS JOIN LATERAL listing_name_words(old_rows.name) AS w
      GROUP BY w ORDER BY w
      ON CONFLICT (word) DO UPDATE SET listings = listing_words.listings + EXCLUDED.listings;
    DELETE FROM listing_words WHERE listings <= 0;
  ELSE
    INSERT INTO listing_words (word, listings)
      SELECT w, sum(delta) FROM (
        SELECT w, 1 AS delta FROM old_rows o JOIN new_rows n ON n.id = o.id
          CROSS JOIN LATERAL listing_name_words(n.name) AS w WHERE o.name IS DISTINCT FROM n.name
        UNION ALL
        SELECT w, -1 FROM old_rows o JOIN new_rows n ON n.id = o.id
          CROSS JOIN LATERAL listing_name_words(o.name) AS w WHERE o.name IS DISTINCT FROM n.name
      ) AS d
      GROUP BY w HAVING sum(delta) <> 0 ORDER BY w
      ON CONFLICT (word) DO UPDATE SET listings = listing_words.listings + EXCLUDED.listings;
    DELETE FROM listing_words WHERE listings <= 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER listing_words_insert AFTER INSERT ON listings
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_words_track();
--> statement-breakpoint
CREATE TRIGGER listing_words_delete AFTER DELETE ON listings
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_words_track();
--> statement-breakpoint
CREATE TRIGGER listing_words_update AFTER UPDATE ON listings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION listing_words_track();
--> statement-breakpoint
INSERT INTO listing_words (word, listings)
  SELECT w, count(*) FROM listings CROSS JOIN LATERAL listing_name_words(listings.name) AS w
  GROUP BY w;
