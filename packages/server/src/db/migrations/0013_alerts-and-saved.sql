-- Alerts ("tell me when it's listed"), their deliveries (an outbox of mails to send, one row per
-- student, listing and event, so a listing is never mailed twice to one student), and saved listings.
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"search_term" text,
	"term_words" text[],
	"isbn" text,
	"subject" text,
	"course_number" text,
	"major" text,
	"condition" text,
	"school" text,
	"max_price" numeric(12, 2),
	"digest" boolean DEFAULT false NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "alerts_user_idx" ON "alerts" USING btree ("user_id");--> statement-breakpoint
-- Matching a listing: by its ISBN, by its course, and the rest of the live alerts.
CREATE INDEX "alerts_isbn_idx" ON "alerts" USING btree ("isbn") WHERE NOT "paused";--> statement-breakpoint
CREATE INDEX "alerts_course_idx" ON "alerts" USING btree ("subject","course_number") WHERE NOT "paused";--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"listing_id" uuid NOT NULL REFERENCES "listings"("id") ON DELETE CASCADE,
	"alert_id" uuid REFERENCES "alerts"("id") ON DELETE CASCADE,
	"event" text NOT NULL,
	"digest" boolean DEFAULT false NOT NULL,
	"claimed_by" uuid,
	"claimed_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_once" ON "alert_deliveries" USING btree ("user_id","listing_id","event");--> statement-breakpoint
CREATE INDEX "alert_deliveries_pending_idx" ON "alert_deliveries" USING btree ("user_id") WHERE "sent_at" IS NULL;--> statement-breakpoint
CREATE TABLE "saved_listings" (
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"listing_id" uuid NOT NULL REFERENCES "listings"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("user_id", "listing_id")
);--> statement-breakpoint
CREATE INDEX "saved_listings_listing_idx" ON "saved_listings" USING btree ("listing_id");
