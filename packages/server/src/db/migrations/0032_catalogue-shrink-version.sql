ALTER TABLE "catalogue_version" ADD COLUMN "shrink_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A total counted up to its cap (a search matching more than 1,000 listings) cannot fall under it
-- while only inserts happen: the shrink version moves with every other write of listings (an
-- update, a delete, a truncate; INSERT … ON CONFLICT DO UPDATE fires the UPDATE trigger too), and a
-- capped total is kept while it stands (features/search/search-listings.ts). A campus's schema
-- replaces this function at start with one that names its campus (campuses/campus-catalogue.ts).
CREATE OR REPLACE FUNCTION catalogue_version_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  UPDATE catalogue_version
     SET version = version + 1,
         shrink_version = shrink_version + CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE 1 END
   WHERE id = 1 RETURNING version INTO v;
  PERFORM pg_notify('catalogue', coalesce(v, 0)::text);
  RETURN NULL;
END
$$;
