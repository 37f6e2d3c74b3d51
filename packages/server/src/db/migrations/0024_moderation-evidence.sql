ALTER TABLE "listing_reports" ADD COLUMN "counts_toward_hide" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "seller_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "review_requested_at" timestamp with time zone;