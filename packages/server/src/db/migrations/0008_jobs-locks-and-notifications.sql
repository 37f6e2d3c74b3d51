-- Background jobs every app server may run, each run by one server at a time (src/jobs/jobs.ts,
-- docs/decisions/006). A server claims due rows with FOR UPDATE SKIP LOCKED and holds them for a
-- lease (locked_until, renewed while the job runs); when it dies the lease expires and another server
-- claims the job again. `key` makes a recurring schedule or a one-off job a singleton.
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"key" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"interval_ms" integer,
	"locked_until" timestamp with time zone,
	"locked_by" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 10 NOT NULL,
	"last_error" text,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "failed_at" IS NULL;--> statement-breakpoint
-- Leases of tus uploads (src/features/uploads/upload-locker.ts): one server at a time writes an
-- upload; the holder renews expires_at while bytes stream, and a server that died loses it on expiry.
CREATE TABLE "upload_locks" (
	"upload_id" text PRIMARY KEY NOT NULL,
	"holder" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- The catalogue's version: bumped in the transaction of every statement that writes listings, so a
-- server that reads it knows whether what it cached (search answers, the vocabulary) may be stale.
-- BEFORE the statement, so every writer of listings takes this row first: concurrent writers queue
-- here instead of locking listing rows and words in different orders. NOTIFY is delivered at commit.
CREATE TABLE "catalogue_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalogue_version_one_row" CHECK ("id" = 1)
);
--> statement-breakpoint
INSERT INTO "catalogue_version" ("id", "version") VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION catalogue_version_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  UPDATE catalogue_version SET version = version + 1 WHERE id = 1 RETURNING version INTO v;
  PERFORM pg_notify('catalogue', coalesce(v, 0)::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER catalogue_version_bump BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON listings
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
