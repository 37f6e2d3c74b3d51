CREATE TABLE "exchanges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid,
	"listing_name" text NOT NULL,
	"seller_id" uuid,
	"buyer_id" uuid,
	"sold_at" timestamp with time zone DEFAULT now() NOT NULL,
	"prompted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "meetups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"proposer_id" uuid,
	"spot_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rating_reports" (
	"rating_id" uuid NOT NULL,
	"reporter_id" uuid NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rating_reports_rating_id_reporter_id_pk" PRIMARY KEY("rating_id","reporter_id")
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exchange_id" uuid NOT NULL,
	"rater_id" uuid,
	"ratee_id" uuid,
	"rater_role" text NOT NULL,
	"positive" boolean NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "moderation_log" ADD COLUMN "rating_id" uuid;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetups" ADD CONSTRAINT "meetups_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetups" ADD CONSTRAINT "meetups_proposer_id_users_id_fk" FOREIGN KEY ("proposer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_reports" ADD CONSTRAINT "rating_reports_rating_id_ratings_id_fk" FOREIGN KEY ("rating_id") REFERENCES "public"."ratings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_reports" ADD CONSTRAINT "rating_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_exchange_id_exchanges_id_fk" FOREIGN KEY ("exchange_id") REFERENCES "public"."exchanges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_rater_id_users_id_fk" FOREIGN KEY ("rater_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_ratee_id_users_id_fk" FOREIGN KEY ("ratee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exchanges_listing_buyer_key" ON "exchanges" USING btree ("listing_id","buyer_id");--> statement-breakpoint
CREATE INDEX "exchanges_seller_idx" ON "exchanges" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "exchanges_buyer_idx" ON "exchanges" USING btree ("buyer_id");--> statement-breakpoint
CREATE INDEX "exchanges_unprompted_idx" ON "exchanges" USING btree ("sold_at") WHERE "exchanges"."prompted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "meetups_conversation_idx" ON "meetups" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "meetups_one_proposed_key" ON "meetups" USING btree ("conversation_id") WHERE "meetups"."status" = 'proposed';--> statement-breakpoint
CREATE UNIQUE INDEX "ratings_exchange_rater_key" ON "ratings" USING btree ("exchange_id","rater_role");--> statement-breakpoint
CREATE INDEX "ratings_ratee_idx" ON "ratings" USING btree ("ratee_id");--> statement-breakpoint
CREATE INDEX "ratings_rater_idx" ON "ratings" USING btree ("rater_id");
--> statement-breakpoint
-- A listing marked sold to a named student records the exchange its two students may rate (once per
-- listing and buyer: selling it again to the same student after a relist is the same exchange).
CREATE OR REPLACE FUNCTION record_exchange() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'sold' AND NEW.sold_to IS NOT NULL
     AND (OLD.status IS DISTINCT FROM 'sold' OR OLD.sold_to IS DISTINCT FROM NEW.sold_to) THEN
    INSERT INTO exchanges (listing_id, listing_name, seller_id, buyer_id, sold_at)
    VALUES (NEW.id, NEW.name, NEW.user_id, NEW.sold_to, COALESCE(NEW.sold_at, now()))
    ON CONFLICT (listing_id, buyer_id) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER listings_record_exchange AFTER UPDATE OF status, sold_to ON listings
  FOR EACH ROW EXECUTE FUNCTION record_exchange();
