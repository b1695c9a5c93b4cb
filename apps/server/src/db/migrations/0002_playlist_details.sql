ALTER TABLE "playlists" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "playlist_entries_song_key" ON "playlist_entries" USING btree ("playlist_id","song_id");--> statement-breakpoint
CREATE INDEX "playlist_entries_song_idx" ON "playlist_entries" USING btree ("song_id");