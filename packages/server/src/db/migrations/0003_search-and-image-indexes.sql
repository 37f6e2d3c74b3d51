CREATE INDEX "listings_major_status_price_idx" ON "listings" USING btree ("major","status","regular_price","id");--> statement-breakpoint
CREATE INDEX "listings_major_status_created_idx" ON "listings" USING btree ("major","status","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "listings_image_urls_idx" ON "listings" USING gin ("image_urls");--> statement-breakpoint
CREATE INDEX "users_avatar_idx" ON "users" USING btree ("avatar");