-- The admin dashboard lists every order newest first; the other order indexes all lead with another column.
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");
