CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"alerts" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_id_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "push_subscriptions_session_id_idx" ON "push_subscriptions" USING btree ("session_id");--> statement-breakpoint
-- A push notification for each of the recipient's devices, as a job written in the transaction of
-- what it tells (so it exists only if that commits) and sent by any app server's job runner: a
-- slow push service never slows a message. Only what the other side said or offered; nothing is
-- written for a student without a subscribed device.
CREATE FUNCTION public.push_conversation_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  recipient uuid;
BEGIN
  SELECT CASE WHEN NEW.sender_id = c.seller_id THEN c.buyer_id ELSE c.seller_id END
    INTO recipient FROM public.conversations c WHERE c.id = NEW.conversation_id;
  IF recipient IS NULL THEN RETURN NULL; END IF;
  INSERT INTO public.jobs (name, payload, run_at, max_attempts)
    SELECT 'push.send', jsonb_build_object('subscription', s.id, 'event', NEW.id), now(), 5
    FROM public.push_subscriptions s WHERE s.user_id = recipient;
  IF FOUND THEN PERFORM pg_notify('jobs', 'push.send'); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER push_conversation_event AFTER INSERT ON public.conversation_events
  FOR EACH ROW WHEN (NEW.sender_id IS NOT NULL
    AND NEW.kind IN ('message', 'offer', 'offer_accepted', 'offer_declined'))
  EXECUTE FUNCTION public.push_conversation_event();--> statement-breakpoint
-- An alert's match, for the devices whose student chose alert notifications on them.
CREATE FUNCTION public.push_alert_match() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.jobs (name, payload, run_at, max_attempts)
    SELECT 'push.send', jsonb_build_object('subscription', s.id, 'listing', NEW.listing_id), now(), 5
    FROM public.push_subscriptions s WHERE s.user_id = NEW.user_id AND s.alerts;
  IF FOUND THEN PERFORM pg_notify('jobs', 'push.send'); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER push_alert_match AFTER INSERT ON public.alert_deliveries
  FOR EACH ROW WHEN (NEW.event = 'alert') EXECUTE FUNCTION public.push_alert_match();
