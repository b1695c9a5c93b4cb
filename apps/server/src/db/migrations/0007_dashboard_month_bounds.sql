DROP INDEX "item_revenue_rollup_bucket_idx";--> statement-breakpoint
DROP INDEX "item_revenue_rollup_artist_idx";--> statement-breakpoint
DROP INDEX "revenue_rollup_bucket_idx";--> statement-breakpoint
DROP INDEX "orders_artist_idx";--> statement-breakpoint
DROP INDEX "orders_status_idx";--> statement-breakpoint
DROP INDEX "orders_created_idx";--> statement-breakpoint
DROP INDEX "orders_gateway_idx";--> statement-breakpoint
DROP INDEX "orders_item_type_idx";--> statement-breakpoint
DROP INDEX "orders_amount_idx";--> statement-breakpoint
DROP INDEX "orders_artist_amount_idx";--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD COLUMN "gross" bigint GENERATED ALWAYS AS (song_gross + album_gross + subscription_gross) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "item_revenue_rollup_bucket_gross_idx" ON "item_revenue_rollup" USING btree ("item_type","grain","bucket","currency","gross" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "item_revenue_rollup_artist_gross_idx" ON "item_revenue_rollup" USING btree ("artist_id","item_type","grain","bucket","currency","gross" DESC NULLS LAST,"item_id");--> statement-breakpoint
CREATE INDEX "revenue_rollup_bucket_gross_idx" ON "revenue_rollup" USING btree ("grain","bucket","currency","gross" DESC NULLS LAST,"scope");--> statement-breakpoint
CREATE INDEX "orders_artist_idx" ON "orders" USING btree ("artist_id","created_at","id","status","gateway","item_type");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status","created_at","id","gateway","item_type");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_gateway_idx" ON "orders" USING btree ("gateway","created_at","id","item_type","status");--> statement-breakpoint
CREATE INDEX "orders_item_type_idx" ON "orders" USING btree ("item_type","created_at","id","gateway","status");--> statement-breakpoint
CREATE INDEX "orders_amount_idx" ON "orders" USING btree ("amount","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_artist_amount_idx" ON "orders" USING btree ("artist_id","amount","created_at","id");