CREATE TYPE "public"."download_format" AS ENUM('mp3', 'flac');--> statement-breakpoint
CREATE TYPE "public"."play_kind" AS ENUM('full', 'preview');--> statement-breakpoint
CREATE TYPE "public"."rendition_kind" AS ENUM('preview', 'mp3', 'flac');--> statement-breakpoint
CREATE TABLE "song_renditions" (
	"song_id" uuid NOT NULL,
	"kind" "rendition_kind" NOT NULL,
	"hls_prefix" text NOT NULL,
	"media_key" text NOT NULL,
	"start_sec" real DEFAULT 0 NOT NULL,
	"duration_sec" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "song_renditions_song_id_kind_pk" PRIMARY KEY("song_id","kind")
);
--> statement-breakpoint
CREATE TABLE "downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"item_type" "item_type" NOT NULL,
	"item_id" uuid NOT NULL,
	"format" "download_format" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "plays_rollup_scope_idx";--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "allow_subscriber_downloads" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plays" ADD COLUMN "kind" "play_kind" DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "preview_start_sec" real;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "plays_rollup" ADD COLUMN "preview_plays" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "song_renditions" ADD CONSTRAINT "song_renditions_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "downloads_user_idx" ON "downloads" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "downloads_item_idx" ON "downloads" USING btree ("item_type","item_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_queued_dedupe_key" ON "jobs" USING btree ("dedupe_key") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "plays_rollup_scope_idx" ON "plays_rollup" USING btree ("scope","grain","bucket","plays","preview_plays");--> statement-breakpoint
-- Plays in the dashboards (0006's trigger function and rebuild, now that plays.kind tells a full play from a 30-second
-- preview of a locked song): a full play counts as a play of the platform, the artist, the song and its album; a
-- preview counts only as a preview play of the platform and the artist (plays_rollup.preview_plays). Rows written
-- before this migration are all full plays (the column's default), so the rollups need no rebuild.
CREATE OR REPLACE FUNCTION dashboard_play_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  song record;
  g rollup_grain;
  b date;
  s uuid;
  full_play integer := CASE WHEN NEW.kind = 'full' THEN 1 ELSE 0 END;
BEGIN
  SELECT artist_id, album_id INTO song FROM songs WHERE id = NEW.song_id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  FOREACH g IN ARRAY ARRAY['day', 'month']::rollup_grain[] LOOP
    b := CASE g WHEN 'day' THEN (NEW.played_at AT TIME ZONE 'UTC')::date
                ELSE date_trunc('month', NEW.played_at AT TIME ZONE 'UTC')::date END;
    FOREACH s IN ARRAY ARRAY['00000000-0000-0000-0000-000000000000'::uuid, song.artist_id] LOOP
      INSERT INTO plays_rollup AS r (scope, grain, bucket, plays, preview_plays)
      VALUES (s, g, b, full_play, 1 - full_play)
      ON CONFLICT (scope, grain, bucket) DO UPDATE SET
        plays = r.plays + excluded.plays,
        preview_plays = r.preview_plays + excluded.preview_plays;
    END LOOP;
    IF full_play = 1 THEN
      INSERT INTO item_plays_rollup AS r (item_type, item_id, artist_id, grain, bucket, plays)
      VALUES ('song', NEW.song_id, song.artist_id, g, b, 1)
      ON CONFLICT (item_type, item_id, grain, bucket) DO UPDATE SET plays = r.plays + 1;
      IF song.album_id IS NOT NULL THEN
        INSERT INTO item_plays_rollup AS r (item_type, item_id, artist_id, grain, bucket, plays)
        VALUES ('album', song.album_id, song.artist_id, g, b, 1)
        ON CONFLICT (item_type, item_id, grain, bucket) DO UPDATE SET plays = r.plays + 1;
      END IF;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The rebuild likewise: full plays as plays (and of songs and albums), previews as preview plays.
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
