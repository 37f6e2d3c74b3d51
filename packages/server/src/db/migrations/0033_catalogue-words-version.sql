ALTER TABLE "catalogue_version" ADD COLUMN "words_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What a search term resolves to in the vocabulary (features/search/terms.ts) stays true while no
-- word joins or leaves it: most new listings bring only words already there. The words version
-- moves when one does, and a kept resolution is used while the page's rows read the version it was
-- made at (features/search/search-listings.ts). Every statement writing listings has locked the
-- catalogue_version row (migration 0008's BEFORE trigger) before this runs, so the look for new
-- words sees every other writer's words committed.
CREATE OR REPLACE FUNCTION listing_words_track() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  added boolean := false;
  removed integer := 0;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT EXISTS (
      SELECT 1 FROM new_rows CROSS JOIN LATERAL listing_name_words(new_rows.name) AS w
       WHERE NOT EXISTS (SELECT 1 FROM listing_words v WHERE v.word = w)
    ) INTO added;
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
    GET DIAGNOSTICS removed = ROW_COUNT;
  ELSE
    SELECT EXISTS (
      SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
        CROSS JOIN LATERAL listing_name_words(n.name) AS w
       WHERE o.name IS DISTINCT FROM n.name
         AND NOT EXISTS (SELECT 1 FROM listing_words v WHERE v.word = w)
    ) INTO added;
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
    GET DIAGNOSTICS removed = ROW_COUNT;
  END IF;
  IF added OR removed > 0 THEN
    UPDATE catalogue_version SET words_version = words_version + 1 WHERE id = 1;
  END IF;
  RETURN NULL;
END
$$;
