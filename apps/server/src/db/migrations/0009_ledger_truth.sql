CREATE TYPE "public"."payment_issue_kind" AS ENUM('amount_mismatch', 'duplicate_payment', 'unknown_payment', 'refund_failed', 'cancel_failed');--> statement-breakpoint
CREATE TYPE "public"."payment_issue_status" AS ENUM('open', 'resolved');--> statement-breakpoint
CREATE TYPE "public"."reconciliation_status" AS ENUM('running', 'succeeded', 'failed');--> statement-breakpoint
ALTER TYPE "public"."order_status" ADD VALUE 'expired';--> statement-breakpoint
ALTER TYPE "public"."refund_kind" ADD VALUE 'reversal';--> statement-breakpoint
CREATE TABLE "early_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gateway" "gateway" NOT NULL,
	"payment_ref" text NOT NULL,
	"kind" "refund_kind" NOT NULL,
	"external_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text,
	"raw" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_issues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gateway" "gateway" NOT NULL,
	"kind" "payment_issue_kind" NOT NULL,
	"external_id" text NOT NULL,
	"order_id" uuid,
	"amount" integer,
	"currency" text,
	"detail" text NOT NULL,
	"status" "payment_issue_status" DEFAULT 'open' NOT NULL,
	"resolution" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gateway" "gateway" NOT NULL,
	"trigger" text NOT NULL,
	"status" "reconciliation_status" DEFAULT 'running' NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"examined" integer DEFAULT 0 NOT NULL,
	"fixed" integer DEFAULT 0 NOT NULL,
	"problems" integer DEFAULT 0 NOT NULL,
	"fixes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_issues" ADD CONSTRAINT "payment_issues_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "early_adjustments_gateway_external_key" ON "early_adjustments" USING btree ("gateway","external_id");--> statement-breakpoint
CREATE INDEX "early_adjustments_payment_idx" ON "early_adjustments" USING btree ("gateway","payment_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_issues_key" ON "payment_issues" USING btree ("gateway","kind","external_id");--> statement-breakpoint
CREATE INDEX "payment_issues_status_idx" ON "payment_issues" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reconciliation_runs_gateway_idx" ON "reconciliation_runs" USING btree ("gateway","started_at");--> statement-breakpoint
-- hand-written
-- A reversal (a dispute the seller won) brings money back: its amount is negative and it undoes one refund.
CREATE OR REPLACE FUNCTION dashboard_refund_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o record;
BEGIN
  SELECT item_type, song_id, album_id, artist_id INTO o FROM orders WHERE id = NEW.order_id;
  IF FOUND THEN
    PERFORM dashboard_add_revenue(o.item_type, o.song_id, o.album_id, o.artist_id, NEW.created_at,
                                  upper(NEW.currency), 0, NEW.amount,
                                  0, CASE WHEN NEW.kind::text = 'reversal' THEN -1 ELSE 1 END);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_rebuild_rollups() RETURNS void LANGUAGE plpgsql SET work_mem = '128MB' AS $$
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
           0, r.amount, 0, CASE WHEN r.kind::text = 'reversal' THEN -1 ELSE 1 END
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

  INSERT INTO plays_rollup (scope, grain, bucket, plays, preview_plays)
  SELECT s.scope, g.grain, g.bucket,
         count(*) FILTER (WHERE p.kind = 'full'), count(*) FILTER (WHERE p.kind = 'preview')
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
  WHERE i.item_id IS NOT NULL AND p.kind = 'full'
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
