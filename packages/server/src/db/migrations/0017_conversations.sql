-- Conversations between a listing's seller and its buyers, their events (messages, offers, system
-- lines), offers, blocks, and the hold of an accepted offer on listings (issue 28).
CREATE TABLE "conversation_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"sender_id" uuid,
	"body" text,
	"amount" numeric(12, 2),
	"offer_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid,
	"listing_name" text NOT NULL,
	"seller_id" uuid,
	"buyer_id" uuid,
	"last_event_id" bigint DEFAULT 0 NOT NULL,
	"last_event_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seller_read_id" bigint DEFAULT 0 NOT NULL,
	"buyer_read_id" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"from_id" uuid,
	"amount" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "offers_amount_range" CHECK ("offers"."amount" >= 0 AND "offers"."amount" <= 10000000)
);
--> statement-breakpoint
CREATE TABLE "user_blocks" (
	"blocker_id" uuid NOT NULL,
	"blocked_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_blocks_blocker_id_blocked_id_pk" PRIMARY KEY("blocker_id","blocked_id")
);
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "held_for" uuid;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "held_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "hold_offer_id" uuid;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "sold_to" uuid;--> statement-breakpoint
ALTER TABLE "conversation_events" ADD CONSTRAINT "conversation_events_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_events" ADD CONSTRAINT "conversation_events_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_from_id_users_id_fk" FOREIGN KEY ("from_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocker_id_users_id_fk" FOREIGN KEY ("blocker_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocked_id_users_id_fk" FOREIGN KEY ("blocked_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_events_conversation_idx" ON "conversation_events" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_events_seq_key" ON "conversation_events" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_listing_buyer_key" ON "conversations" USING btree ("listing_id","buyer_id");--> statement-breakpoint
CREATE INDEX "conversations_seller_idx" ON "conversations" USING btree ("seller_id","last_event_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_buyer_idx" ON "conversations" USING btree ("buyer_id","last_event_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "offers_one_open_key" ON "offers" USING btree ("conversation_id") WHERE "offers"."status" = 'open';--> statement-breakpoint
CREATE INDEX "user_blocks_blocked_idx" ON "user_blocks" USING btree ("blocked_id");--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_held_for_users_id_fk" FOREIGN KEY ("held_for") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_sold_to_users_id_fk" FOREIGN KEY ("sold_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Written by hand (not by drizzle-kit): the hold job's index, and the triggers that keep the
-- conversations in step with every writer of listings and events.
CREATE INDEX "listings_held_until_idx" ON "listings" USING btree ("held_until") WHERE "held_until" IS NOT NULL;--> statement-breakpoint
-- A listing that leaves 'active' (sold, expired, hidden, removed), by whichever path, ends its hold.
-- Named to run before listings_write_json (BEFORE triggers run in name order), so the stored answer
-- says no longer pending.
CREATE FUNCTION public.listings_end_hold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> 'active' THEN
    NEW.held_for := NULL;
    NEW.held_until := NULL;
    NEW.hold_offer_id := NULL;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER listings_end_hold BEFORE UPDATE OF status ON public.listings
  FOR EACH ROW EXECUTE FUNCTION public.listings_end_hold();--> statement-breakpoint
-- The system lines of what happened to a listing, in each of its conversations: its price changed,
-- it sold, expired, was removed by the moderators, or is for sale again.
CREATE FUNCTION public.listings_conversation_lines() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    line := CASE
      WHEN NEW.status = 'sold' THEN 'sold'
      WHEN NEW.status = 'expired' THEN 'expired'
      WHEN NEW.status = 'removed' THEN 'removed'
      WHEN NEW.status = 'active' AND OLD.status IN ('sold', 'expired') THEN 'relisted'
    END;
    IF line IS NOT NULL THEN
      INSERT INTO public.conversation_events (conversation_id, kind)
        SELECT id, line FROM public.conversations WHERE listing_id = NEW.id;
    END IF;
  END IF;
  IF NEW.regular_price IS DISTINCT FROM OLD.regular_price THEN
    INSERT INTO public.conversation_events (conversation_id, kind, amount)
      SELECT id, 'price', NEW.regular_price FROM public.conversations WHERE listing_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER listings_conversation_lines AFTER UPDATE OF status, regular_price ON public.listings
  FOR EACH ROW EXECUTE FUNCTION public.listings_conversation_lines();--> statement-breakpoint
-- Every event moves its conversation up both inboxes, and its author has read it. A NOTIFY, sent
-- at commit, names the event and its two participants, so each app server reads the row only when
-- one of them has a live stream open there.
CREATE FUNCTION public.conversation_event_written() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seller uuid;
  buyer uuid;
BEGIN
  UPDATE public.conversations SET
    last_event_id = GREATEST(last_event_id, NEW.id),
    last_event_at = GREATEST(last_event_at, NEW.created_at),
    seller_read_id = CASE WHEN NEW.sender_id = seller_id
      THEN GREATEST(seller_read_id, NEW.id) ELSE seller_read_id END,
    buyer_read_id = CASE WHEN NEW.sender_id = buyer_id
      THEN GREATEST(buyer_read_id, NEW.id) ELSE buyer_read_id END
  WHERE id = NEW.conversation_id
  RETURNING seller_id, buyer_id INTO seller, buyer;
  PERFORM pg_notify('conversation_events',
    concat_ws(' ', NEW.id::text, coalesce(seller::text, '-'), coalesce(buyer::text, '-')));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER conversation_event_written AFTER INSERT ON public.conversation_events
  FOR EACH ROW EXECUTE FUNCTION public.conversation_event_written();
--> statement-breakpoint
-- Each event's seq is given at commit, in commit order: a deferred trigger takes one lock (held
-- until the commit ends) and then the next number. A live stream that resumes after seq N thus
-- never misses an event committed later with a smaller number. The lock is the last one a
-- transaction takes, so it cannot close a cycle of waits.
CREATE SEQUENCE public.conversation_event_seq OWNED BY public.conversation_events.seq;--> statement-breakpoint
CREATE FUNCTION public.conversation_event_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(72707370);
  UPDATE public.conversation_events SET seq = nextval('public.conversation_event_seq')
    WHERE id = NEW.id AND seq IS NULL;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER conversation_event_commit AFTER INSERT ON public.conversation_events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.conversation_event_commit();
