CREATE TABLE "images" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid,
	"status" text DEFAULT 'uploading' NOT NULL,
	"bytes" integer DEFAULT 0 NOT NULL,
	"width" integer,
	"height" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attached_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "images_owner_created_idx" ON "images" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "images_status_created_idx" ON "images" USING btree ("status","created_at");