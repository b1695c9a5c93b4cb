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
ALTER TABLE "artists" ADD COLUMN "allow_subscriber_downloads" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plays" ADD COLUMN "kind" "play_kind" DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "preview_start_sec" real;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "song_renditions" ADD CONSTRAINT "song_renditions_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "downloads_user_idx" ON "downloads" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "downloads_item_idx" ON "downloads" USING btree ("item_type","item_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_queued_dedupe_key" ON "jobs" USING btree ("dedupe_key") WHERE status = 'queued';