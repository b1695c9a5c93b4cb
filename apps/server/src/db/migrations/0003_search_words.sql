-- Every distinct word of the catalogue's search texts: typo-tolerant search looks a misspelt word up here (a few
-- thousand short rows) instead of testing trigram similarity on every candidate song. Kept by triggers, so every
-- writer (the app, the demo seed, bulk imports) maintains it; words of deleted rows stay (they only cost a lookup).
CREATE TABLE "search_words" ("word" text PRIMARY KEY NOT NULL);--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE FUNCTION "search_words_collect"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM changed_rows, unnest(string_to_array(changed_rows.search_text, ' ')) AS w
  WHERE w <> ''
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "songs_search_words_insert" AFTER INSERT ON "songs" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_collect();--> statement-breakpoint
CREATE TRIGGER "songs_search_words_update" AFTER UPDATE ON "songs" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_collect();--> statement-breakpoint
CREATE TRIGGER "albums_search_words_insert" AFTER INSERT ON "albums" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_collect();--> statement-breakpoint
CREATE TRIGGER "albums_search_words_update" AFTER UPDATE ON "albums" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_collect();--> statement-breakpoint
CREATE TRIGGER "artists_search_words_insert" AFTER INSERT ON "artists" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_collect();--> statement-breakpoint
CREATE TRIGGER "artists_search_words_update" AFTER UPDATE ON "artists" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_collect();--> statement-breakpoint
INSERT INTO "search_words" ("word")
SELECT DISTINCT w FROM (
  SELECT search_text FROM songs UNION ALL SELECT search_text FROM albums UNION ALL SELECT search_text FROM artists
) AS texts, unnest(string_to_array(texts.search_text, ' ')) AS w
WHERE w <> ''
ON CONFLICT DO NOTHING;
