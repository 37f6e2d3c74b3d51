-- The words of a listing name as an array (the words listing_name_words gives, migration 0004),
-- stored in listings.name_words with a GIN index: a search term's words are matched there
-- (listings.search.ts). Schema-qualified: PostgreSQL 17+ runs maintenance with a pg_catalog-only
-- search_path.
CREATE FUNCTION listing_name_word_array(name text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array(SELECT public.listing_name_words(name))
$$;
--> statement-breakpoint
DROP INDEX "listings_course_number_idx";--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "name_words" text[] GENERATED ALWAYS AS (public.listing_name_word_array(name)) STORED;--> statement-breakpoint
CREATE INDEX "listings_name_words_idx" ON "listings" USING gin ("name_words");--> statement-breakpoint
CREATE INDEX "listings_course_status_created_idx" ON "listings" USING btree ("course_number","status","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
-- Statistics for the new column now, so the planner knows how common each word is.
ANALYZE listings;
