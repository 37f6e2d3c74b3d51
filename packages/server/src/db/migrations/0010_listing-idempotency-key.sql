-- A create request's Idempotency-Key (docs/decisions/007-idempotent-create.md): one listing per key
-- and owner, however many copies of the request arrive, on however many app servers.
ALTER TABLE "listings" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "listings_user_idempotency_key" ON "listings" USING btree ("user_id","idempotency_key");
