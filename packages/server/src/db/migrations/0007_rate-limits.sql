-- One counter per (rule, key) for every attempt limit, shared by all app servers (docs/decisions/005).
-- UNLOGGED: counters need no crash safety, and skipping the WAL keeps the hot upsert cheap.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limits_expires_at_idx" ON "rate_limits" USING btree ("expires_at");
