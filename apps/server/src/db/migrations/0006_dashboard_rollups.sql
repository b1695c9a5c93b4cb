CREATE TYPE "public"."rollup_grain" AS ENUM('day', 'month');--> statement-breakpoint
CREATE TABLE "item_plays_rollup" (
	"item_type" "item_type" NOT NULL,
	"item_id" uuid NOT NULL,
	"artist_id" uuid,
	"grain" "rollup_grain" NOT NULL,
	"bucket" date NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "item_plays_rollup_item_type_item_id_grain_bucket_pk" PRIMARY KEY("item_type","item_id","grain","bucket")
);
--> statement-breakpoint
CREATE TABLE "item_revenue_rollup" (
	"item_type" "item_type" NOT NULL,
	"item_id" uuid NOT NULL,
	"artist_id" uuid,
	"grain" "rollup_grain" NOT NULL,
	"bucket" date NOT NULL,
	"currency" text NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	"sales" integer DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"net" bigint GENERATED ALWAYS AS (gross - refunded) STORED NOT NULL,
	CONSTRAINT "item_revenue_rollup_item_type_item_id_grain_bucket_currency_pk" PRIMARY KEY("item_type","item_id","grain","bucket","currency")
);
--> statement-breakpoint
CREATE TABLE "plays_rollup" (
	"scope" uuid NOT NULL,
	"grain" "rollup_grain" NOT NULL,
	"bucket" date NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "plays_rollup_scope_grain_bucket_pk" PRIMARY KEY("scope","grain","bucket")
);
--> statement-breakpoint
CREATE TABLE "revenue_rollup" (
	"scope" uuid NOT NULL,
	"grain" "rollup_grain" NOT NULL,
	"bucket" date NOT NULL,
	"currency" text NOT NULL,
	"song_gross" bigint DEFAULT 0 NOT NULL,
	"album_gross" bigint DEFAULT 0 NOT NULL,
	"subscription_gross" bigint DEFAULT 0 NOT NULL,
	"song_refunded" bigint DEFAULT 0 NOT NULL,
	"album_refunded" bigint DEFAULT 0 NOT NULL,
	"subscription_refunded" bigint DEFAULT 0 NOT NULL,
	"sales" integer DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"net" bigint GENERATED ALWAYS AS (song_gross + album_gross + subscription_gross - song_refunded - album_refunded - subscription_refunded) STORED NOT NULL,
	CONSTRAINT "revenue_rollup_scope_grain_bucket_currency_pk" PRIMARY KEY("scope","grain","bucket","currency")
);
--> statement-breakpoint
CREATE TABLE "subscriber_rollup" (
	"scope" uuid NOT NULL,
	"day" date NOT NULL,
	"starts" integer DEFAULT 0 NOT NULL,
	"ends" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "subscriber_rollup_scope_day_pk" PRIMARY KEY("scope","day")
);
--> statement-breakpoint
DROP INDEX "artists_owner_idx";--> statement-breakpoint
CREATE INDEX "item_plays_rollup_bucket_idx" ON "item_plays_rollup" USING btree ("item_type","grain","bucket","plays" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "item_plays_rollup_artist_idx" ON "item_plays_rollup" USING btree ("artist_id","item_type","grain","bucket","plays" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "item_revenue_rollup_bucket_idx" ON "item_revenue_rollup" USING btree ("item_type","grain","bucket","currency","net" DESC NULLS LAST,"item_id","sales");--> statement-breakpoint
CREATE INDEX "item_revenue_rollup_artist_idx" ON "item_revenue_rollup" USING btree ("artist_id","item_type","grain","bucket","currency","net" DESC NULLS LAST,"item_id","sales");--> statement-breakpoint
CREATE INDEX "plays_rollup_scope_idx" ON "plays_rollup" USING btree ("scope","grain","bucket","plays");--> statement-breakpoint
CREATE INDEX "plays_rollup_bucket_idx" ON "plays_rollup" USING btree ("grain","bucket","plays" DESC NULLS LAST,"scope");--> statement-breakpoint
CREATE INDEX "revenue_rollup_scope_idx" ON "revenue_rollup" USING btree ("scope","grain","bucket","currency","song_gross","album_gross","subscription_gross","song_refunded","album_refunded","subscription_refunded","sales","refunds");--> statement-breakpoint
CREATE INDEX "revenue_rollup_bucket_idx" ON "revenue_rollup" USING btree ("grain","bucket","currency","net" DESC NULLS LAST,"scope","sales");--> statement-breakpoint
CREATE INDEX "subscriber_rollup_scope_idx" ON "subscriber_rollup" USING btree ("scope","day","starts","ends");--> statement-breakpoint
-- An artist account manages one artist profile (the service already refused a second); an older database that
-- somehow holds two keeps the account on its first profile, so the unique index below can be built.
UPDATE "artists" SET "owner_user_id" = NULL
WHERE "owner_user_id" IS NOT NULL AND "id" NOT IN (
  SELECT DISTINCT ON ("owner_user_id") "id" FROM "artists"
  WHERE "owner_user_id" IS NOT NULL ORDER BY "owner_user_id", "created_at", "id"
);--> statement-breakpoint
CREATE UNIQUE INDEX "artists_owner_key" ON "artists" USING btree ("owner_user_id") WHERE "artists"."owner_user_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_gateway_idx" ON "orders" USING btree ("gateway","created_at");--> statement-breakpoint
CREATE INDEX "orders_item_type_idx" ON "orders" USING btree ("item_type","created_at");--> statement-breakpoint
CREATE INDEX "orders_amount_idx" ON "orders" USING btree ("amount","created_at");--> statement-breakpoint
CREATE INDEX "orders_artist_amount_idx" ON "orders" USING btree ("artist_id","amount","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_period_end_idx" ON "subscriptions" USING btree ("current_period_end","status");--> statement-breakpoint
-- Dashboard rollups (schema/dashboard.ts), kept by triggers. They are deferred constraint triggers: they run at
-- commit, in the transaction that wrote the payment, refund, play or subscription, so a rollup row shared by many
-- writers (today's platform row) is locked only for the moment of the commit. Buckets are UTC days and months.
CREATE FUNCTION dashboard_add_revenue(
  p_item_type item_type, p_song uuid, p_album uuid, p_artist uuid, p_at timestamptz, p_currency text,
  p_gross bigint, p_refunded bigint, p_sales integer, p_refunds integer
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  g rollup_grain;
  b date;
  s uuid;
  item uuid := CASE p_item_type WHEN 'song' THEN p_song WHEN 'album' THEN p_album END;
BEGIN
  FOREACH g IN ARRAY ARRAY['day', 'month']::rollup_grain[] LOOP
    b := CASE g WHEN 'day' THEN (p_at AT TIME ZONE 'UTC')::date
                ELSE date_trunc('month', p_at AT TIME ZONE 'UTC')::date END;
    FOREACH s IN ARRAY array_remove(ARRAY['00000000-0000-0000-0000-000000000000'::uuid, p_artist], NULL) LOOP
      INSERT INTO revenue_rollup AS r (scope, grain, bucket, currency, song_gross, album_gross, subscription_gross,
                                       song_refunded, album_refunded, subscription_refunded, sales, refunds)
      VALUES (s, g, b, p_currency,
              CASE WHEN p_item_type = 'song' THEN p_gross ELSE 0 END,
              CASE WHEN p_item_type = 'album' THEN p_gross ELSE 0 END,
              CASE WHEN p_item_type = 'subscription' THEN p_gross ELSE 0 END,
              CASE WHEN p_item_type = 'song' THEN p_refunded ELSE 0 END,
              CASE WHEN p_item_type = 'album' THEN p_refunded ELSE 0 END,
              CASE WHEN p_item_type = 'subscription' THEN p_refunded ELSE 0 END,
              p_sales, p_refunds)
      ON CONFLICT (scope, grain, bucket, currency) DO UPDATE SET
        song_gross = r.song_gross + excluded.song_gross,
        album_gross = r.album_gross + excluded.album_gross,
        subscription_gross = r.subscription_gross + excluded.subscription_gross,
        song_refunded = r.song_refunded + excluded.song_refunded,
        album_refunded = r.album_refunded + excluded.album_refunded,
        subscription_refunded = r.subscription_refunded + excluded.subscription_refunded,
        sales = r.sales + excluded.sales,
        refunds = r.refunds + excluded.refunds;
    END LOOP;
    IF item IS NOT NULL THEN
      INSERT INTO item_revenue_rollup AS r (item_type, item_id, artist_id, grain, bucket, currency, gross, refunded,
                                            sales, refunds)
      VALUES (p_item_type, item, p_artist, g, b, p_currency, p_gross, p_refunded, p_sales, p_refunds)
      ON CONFLICT (item_type, item_id, grain, bucket, currency) DO UPDATE SET
        artist_id = coalesce(r.artist_id, excluded.artist_id),
        gross = r.gross + excluded.gross,
        refunded = r.refunded + excluded.refunded,
        sales = r.sales + excluded.sales,
        refunds = r.refunds + excluded.refunds;
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- A succeeded payment is revenue of its order's item on the day it was received.
CREATE FUNCTION dashboard_payment_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o record;
BEGIN
  IF NEW.status <> 'succeeded' THEN RETURN NULL; END IF;
  SELECT item_type, song_id, album_id, artist_id INTO o FROM orders WHERE id = NEW.order_id;
  IF FOUND THEN
    PERFORM dashboard_add_revenue(o.item_type, o.song_id, o.album_id, o.artist_id, NEW.created_at,
                                  upper(NEW.currency), NEW.amount, 0, 1, 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A refund or dispute takes its amount back, in its own currency, on the day it was made.
CREATE FUNCTION dashboard_refund_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o record;
BEGIN
  SELECT item_type, song_id, album_id, artist_id INTO o FROM orders WHERE id = NEW.order_id;
  IF FOUND THEN
    PERFORM dashboard_add_revenue(o.item_type, o.song_id, o.album_id, o.artist_id, NEW.created_at,
                                  upper(NEW.currency), 0, NEW.amount, 0, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every row of `plays` is a full listen. (When previews are recorded in the same table, only full plays count here.)
CREATE FUNCTION dashboard_play_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  song record;
  g rollup_grain;
  b date;
  s uuid;
BEGIN
  SELECT artist_id, album_id INTO song FROM songs WHERE id = NEW.song_id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  FOREACH g IN ARRAY ARRAY['day', 'month']::rollup_grain[] LOOP
    b := CASE g WHEN 'day' THEN (NEW.played_at AT TIME ZONE 'UTC')::date
                ELSE date_trunc('month', NEW.played_at AT TIME ZONE 'UTC')::date END;
    FOREACH s IN ARRAY ARRAY['00000000-0000-0000-0000-000000000000'::uuid, song.artist_id] LOOP
      INSERT INTO plays_rollup AS r (scope, grain, bucket, plays) VALUES (s, g, b, 1)
      ON CONFLICT (scope, grain, bucket) DO UPDATE SET plays = r.plays + 1;
    END LOOP;
    INSERT INTO item_plays_rollup AS r (item_type, item_id, artist_id, grain, bucket, plays)
    VALUES ('song', NEW.song_id, song.artist_id, g, b, 1)
    ON CONFLICT (item_type, item_id, grain, bucket) DO UPDATE SET plays = r.plays + 1;
    IF song.album_id IS NOT NULL THEN
      INSERT INTO item_plays_rollup AS r (item_type, item_id, artist_id, grain, bucket, plays)
      VALUES ('album', song.album_id, song.artist_id, g, b, 1)
      ON CONFLICT (item_type, item_id, grain, bucket) DO UPDATE SET plays = r.plays + 1;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A subscription is a subscriber from the UTC day it was taken out until the UTC day its paid period ends.
CREATE FUNCTION dashboard_add_subscriber(p_artist uuid, p_start timestamptz, p_end timestamptz, p_sign integer)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  start_day date := (p_start AT TIME ZONE 'UTC')::date;
  end_day date := (p_end AT TIME ZONE 'UTC')::date;
  s uuid;
BEGIN
  IF p_end IS NULL OR end_day <= start_day THEN RETURN; END IF;
  FOREACH s IN ARRAY ARRAY['00000000-0000-0000-0000-000000000000'::uuid, p_artist] LOOP
    INSERT INTO subscriber_rollup AS r (scope, day, starts, ends) VALUES (s, start_day, p_sign, 0)
    ON CONFLICT (scope, day) DO UPDATE SET starts = r.starts + excluded.starts;
    INSERT INTO subscriber_rollup AS r (scope, day, starts, ends) VALUES (s, end_day, 0, p_sign)
    ON CONFLICT (scope, day) DO UPDATE SET ends = r.ends + excluded.ends;
  END LOOP;
END $$;
--> statement-breakpoint
-- A renewal moves the period's end: the old interval goes, the new one comes (each deferred event carries the row
-- as it was then, so several updates in one transaction add up to the last one).
CREATE FUNCTION dashboard_subscription_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF OLD.created_at = NEW.created_at AND OLD.artist_id = NEW.artist_id
       AND OLD.current_period_end IS NOT DISTINCT FROM NEW.current_period_end THEN
      RETURN NULL;
    END IF;
    PERFORM dashboard_add_subscriber(OLD.artist_id, OLD.created_at, OLD.current_period_end, -1);
  END IF;
  PERFORM dashboard_add_subscriber(NEW.artist_id, NEW.created_at, NEW.current_period_end, 1);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payments_dashboard_rollup" AFTER INSERT ON "payments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION dashboard_payment_rollup();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "refunds_dashboard_rollup" AFTER INSERT ON "refunds"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION dashboard_refund_rollup();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "plays_dashboard_rollup" AFTER INSERT ON "plays"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION dashboard_play_rollup();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "subscriptions_dashboard_rollup" AFTER INSERT OR UPDATE ON "subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION dashboard_subscription_rollup();--> statement-breakpoint
-- Recomputes every rollup from the ledger as it is now (this migration's backfill; after a bulk load made with
-- triggers off). Set-based: one pass over each source table.
-- work_mem: the grouping of a large ledger stays in memory instead of spilling to disk (for this call only).
CREATE FUNCTION dashboard_rebuild_rollups() RETURNS void LANGUAGE plpgsql SET work_mem = '128MB' AS $$
BEGIN
  DELETE FROM revenue_rollup;
  DELETE FROM item_revenue_rollup;
  DELETE FROM plays_rollup;
  DELETE FROM item_plays_rollup;
  DELETE FROM subscriber_rollup;

  CREATE TEMP TABLE dashboard_money ON COMMIT DROP AS
    SELECT o.item_type, o.song_id, o.album_id, o.artist_id, upper(p.currency) AS currency, p.created_at AS at,
           p.amount::bigint AS gross, 0::bigint AS refunded, 1 AS sales, 0 AS refunds
    FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.status = 'succeeded'
    UNION ALL
    SELECT o.item_type, o.song_id, o.album_id, o.artist_id, upper(r.currency), r.created_at,
           0, r.amount, 0, 1
    FROM refunds r JOIN orders o ON o.id = r.order_id;

  INSERT INTO revenue_rollup (scope, grain, bucket, currency, song_gross, album_gross, subscription_gross,
                              song_refunded, album_refunded, subscription_refunded, sales, refunds)
  SELECT s.scope, g.grain, g.bucket, m.currency,
         coalesce(sum(m.gross) FILTER (WHERE m.item_type = 'song'), 0), coalesce(sum(m.gross) FILTER (WHERE m.item_type = 'album'), 0),
         coalesce(sum(m.gross) FILTER (WHERE m.item_type = 'subscription'), 0),
         coalesce(sum(m.refunded) FILTER (WHERE m.item_type = 'song'), 0), coalesce(sum(m.refunded) FILTER (WHERE m.item_type = 'album'), 0),
         coalesce(sum(m.refunded) FILTER (WHERE m.item_type = 'subscription'), 0),
         sum(m.sales), sum(m.refunds)
  FROM dashboard_money m
  CROSS JOIN LATERAL (VALUES ('day'::rollup_grain, (m.at AT TIME ZONE 'UTC')::date),
                             ('month'::rollup_grain, date_trunc('month', m.at AT TIME ZONE 'UTC')::date)) g(grain, bucket)
  CROSS JOIN LATERAL (SELECT '00000000-0000-0000-0000-000000000000'::uuid
                      UNION ALL SELECT m.artist_id WHERE m.artist_id IS NOT NULL) s(scope)
  GROUP BY s.scope, g.grain, g.bucket, m.currency;

  INSERT INTO item_revenue_rollup (item_type, item_id, artist_id, grain, bucket, currency, gross, refunded, sales,
                                   refunds)
  SELECT m.item_type, i.item_id, max(m.artist_id::text)::uuid, g.grain, g.bucket, m.currency,
         sum(m.gross), sum(m.refunded), sum(m.sales), sum(m.refunds)
  FROM dashboard_money m
  CROSS JOIN LATERAL (SELECT CASE m.item_type WHEN 'song' THEN m.song_id WHEN 'album' THEN m.album_id END) i(item_id)
  CROSS JOIN LATERAL (VALUES ('day'::rollup_grain, (m.at AT TIME ZONE 'UTC')::date),
                             ('month'::rollup_grain, date_trunc('month', m.at AT TIME ZONE 'UTC')::date)) g(grain, bucket)
  WHERE i.item_id IS NOT NULL
  GROUP BY m.item_type, i.item_id, g.grain, g.bucket, m.currency;

  INSERT INTO plays_rollup (scope, grain, bucket, plays)
  SELECT s.scope, g.grain, g.bucket, count(*)
  FROM plays p JOIN songs so ON so.id = p.song_id
  CROSS JOIN LATERAL (VALUES ('day'::rollup_grain, (p.played_at AT TIME ZONE 'UTC')::date),
                             ('month'::rollup_grain, date_trunc('month', p.played_at AT TIME ZONE 'UTC')::date)) g(grain, bucket)
  CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (so.artist_id)) s(scope)
  GROUP BY s.scope, g.grain, g.bucket;

  INSERT INTO item_plays_rollup (item_type, item_id, artist_id, grain, bucket, plays)
  SELECT i.item_type, i.item_id, max(so.artist_id::text)::uuid, g.grain, g.bucket, count(*)
  FROM plays p JOIN songs so ON so.id = p.song_id
  CROSS JOIN LATERAL (VALUES ('day'::rollup_grain, (p.played_at AT TIME ZONE 'UTC')::date),
                             ('month'::rollup_grain, date_trunc('month', p.played_at AT TIME ZONE 'UTC')::date)) g(grain, bucket)
  CROSS JOIN LATERAL (VALUES ('song'::item_type, so.id), ('album'::item_type, so.album_id)) i(item_type, item_id)
  WHERE i.item_id IS NOT NULL
  GROUP BY i.item_type, i.item_id, g.grain, g.bucket;

  INSERT INTO subscriber_rollup (scope, day, starts, ends)
  SELECT e.scope, e.day, sum(e.starts), sum(e.ends)
  FROM (
    SELECT s.scope, d.day, d.starts, d.ends
    FROM subscriptions su
    CROSS JOIN LATERAL (VALUES ((su.created_at AT TIME ZONE 'UTC')::date, 1, 0),
                               ((su.current_period_end AT TIME ZONE 'UTC')::date, 0, 1)) d(day, starts, ends)
    CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (su.artist_id)) s(scope)
    WHERE su.current_period_end IS NOT NULL
      AND (su.current_period_end AT TIME ZONE 'UTC')::date > (su.created_at AT TIME ZONE 'UTC')::date
  ) e
  GROUP BY e.scope, e.day;
END $$;
--> statement-breakpoint
SELECT dashboard_rebuild_rollups();
