ALTER TYPE "public"."processing_status" ADD VALUE 'removed';--> statement-breakpoint
CREATE TABLE "audio_fetches" (
	"user_id" uuid NOT NULL,
	"song_id" uuid NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"counted_at" timestamp with time zone,
	CONSTRAINT "audio_fetches_user_id_song_id_pk" PRIMARY KEY("user_id","song_id")
);
--> statement-breakpoint
DROP INDEX "albums_created_idx";--> statement-breakpoint
ALTER TABLE "albums" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "albums" ADD COLUMN "deleted_track_ids" uuid[];--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audio_fetches" ADD CONSTRAINT "audio_fetches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audio_fetches" ADD CONSTRAINT "audio_fetches_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "albums_created_idx" ON "albums" USING btree ("created_at","id") WHERE "albums"."deleted_at" is null;