-- Trust and freshness (issue 16, docs/decisions/009). Listings expire (expires_at) unless their seller
-- confirms them (confirmed_at); the reminder job marks each reminder sent in the statement that claims
-- it. Statuses beyond active/sold: 'expired' (the job), 'hidden' (three reports, or a suspended
-- seller: hidden_reason says which, so unsuspending restores only its own), 'removed' (a moderator).
-- Search keeps its status = 'active' index paths: none of these is ever 'active'.
ALTER TABLE "listings" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "reminded_7d_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "reminded_1d_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
-- Existing listings: 60 days (the default lifetime) from creation, and at least a week from now so
-- their sellers hear about it before anything expires.
UPDATE "listings" SET
	"confirmed_at" = "created_at",
	"expires_at" = greatest("created_at" + interval '60 days', now() + interval '7 days');--> statement-breakpoint
ALTER TABLE "listings" ALTER COLUMN "confirmed_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "listings" ALTER COLUMN "confirmed_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ALTER COLUMN "expires_at" SET DEFAULT now() + interval '60 days';--> statement-breakpoint
ALTER TABLE "listings" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
-- The expiry job's walk: active listings by expiry.
CREATE INDEX "listings_active_expires_idx" ON "listings" USING btree ("expires_at") WHERE "status" = 'active';--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "listing_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL REFERENCES "listings"("id") ON DELETE CASCADE,
	"reporter_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"reason" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	-- Set when a moderator dealt with it (dismissed or removed): out of the queue and the count.
	"resolved_at" timestamp with time zone,
	CONSTRAINT "listing_reports_reason_check" CHECK ("reason" IN ('spam_or_scam', 'not_a_textbook', 'offensive', 'already_sold', 'other')),
	CONSTRAINT "listing_reports_note_length" CHECK ("note" IS NULL OR char_length("note") <= 1000)
);
--> statement-breakpoint
-- One report per student per listing: a second is a 409, however many copies arrive at once.
CREATE UNIQUE INDEX "listing_reports_listing_reporter_key" ON "listing_reports" USING btree ("listing_id","reporter_id");--> statement-breakpoint
CREATE INDEX "listing_reports_open_idx" ON "listing_reports" USING btree ("created_at") WHERE "resolved_at" IS NULL;--> statement-breakpoint
-- What moderators did. Append-only: the trigger below refuses every UPDATE and DELETE.
CREATE TABLE "moderation_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"moderator_id" uuid,
	"moderator_email" text NOT NULL,
	"action" text NOT NULL,
	"listing_id" uuid,
	"user_id" uuid,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "moderation_log_created_idx" ON "moderation_log" USING btree ("created_at" DESC);--> statement-breakpoint
CREATE FUNCTION "moderation_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'moderation_log is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "moderation_log_no_change" BEFORE UPDATE OR DELETE ON "moderation_log"
	FOR EACH ROW EXECUTE FUNCTION "moderation_log_append_only"();
