-- Books and courses: a listing's book (ISBN-13, authors, edition), its subject next to the course
-- number ("ECON 101"), which of its images is the publisher's cover; and the cache of book lookups.
ALTER TABLE "listings" ADD COLUMN "isbn" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "authors" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "edition" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "publisher_cover_url" text;--> statement-breakpoint
-- An ISBN search, the price hint and "other copies on campus" ask for one ISBN's listings.
CREATE INDEX "listings_isbn_idx" ON "listings" USING btree ("isbn");--> statement-breakpoint
-- A course page and a course-code search: one subject and number's listings.
CREATE INDEX "listings_subject_course_idx" ON "listings" USING btree ("subject","course_number","status");--> statement-breakpoint
-- What the book providers answered per ISBN: a hit is kept, a miss (found = false) for a day.
CREATE TABLE "books" (
	"isbn" text PRIMARY KEY NOT NULL,
	"found" boolean NOT NULL,
	"title" text,
	"authors" text,
	"edition" text,
	"publisher" text,
	"year" integer,
	"cover_url" text,
	"provider" text,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
