CREATE TABLE "offer_listings" (
	"offer_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "offer_listings_offer_id_listing_id_pk" PRIMARY KEY("offer_id","listing_id")
);
--> statement-breakpoint
ALTER TABLE "offer_listings" ADD CONSTRAINT "offer_listings_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_listings" ADD CONSTRAINT "offer_listings_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offer_listings_listing_idx" ON "offer_listings" USING btree ("listing_id");