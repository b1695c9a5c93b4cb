DROP INDEX "item_revenue_rollup_bucket_idx";--> statement-breakpoint
DROP INDEX "item_revenue_rollup_artist_idx";--> statement-breakpoint
DROP INDEX "revenue_rollup_bucket_idx";--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD COLUMN "gross" bigint GENERATED ALWAYS AS (song_gross + album_gross + subscription_gross) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "item_revenue_rollup_bucket_gross_idx" ON "item_revenue_rollup" USING btree ("item_type","grain","bucket","currency","gross" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "item_revenue_rollup_artist_gross_idx" ON "item_revenue_rollup" USING btree ("artist_id","item_type","grain","bucket","currency","gross" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "revenue_rollup_bucket_gross_idx" ON "revenue_rollup" USING btree ("grain","bucket","currency","gross" DESC NULLS LAST,"scope");