ALTER TABLE "users" ADD COLUMN "read_receipts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_events" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "seller_read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "buyer_read_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_events_sender_client_key" ON "conversation_events" USING btree ("sender_id","client_id");