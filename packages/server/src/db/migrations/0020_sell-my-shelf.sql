CREATE TABLE "listing_drafts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"fields" jsonb NOT NULL,
	"image_urls" text[] DEFAULT '{}'::text[] NOT NULL,
	"publishing_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "term_end_mail_subscribers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "term_end_mails_sent" (
	"user_id" uuid NOT NULL,
	"term_end" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered" boolean DEFAULT false NOT NULL,
	CONSTRAINT "term_end_mails_sent_user_id_term_end_pk" PRIMARY KEY("user_id","term_end")
);
--> statement-breakpoint
ALTER TABLE "listing_drafts" ADD CONSTRAINT "listing_drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_end_mail_subscribers" ADD CONSTRAINT "term_end_mail_subscribers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_end_mails_sent" ADD CONSTRAINT "term_end_mails_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_drafts_user_id_idx" ON "listing_drafts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "listing_drafts_image_urls_idx" ON "listing_drafts" USING gin ("image_urls");