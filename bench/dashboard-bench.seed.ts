import type pg from 'pg';

/**
 * A platform with a history of 1M orders (BENCH_ORDERS) over two years, written with generate_series straight into
 * a throwaway PostgreSQL: 100k listeners, 1,000 artists (5 % selling in EUR), 10,000 albums, 100,000 songs,
 * popularity skewed as real catalogues are (a few songs sell most), one payment per order, refunds and disputes,
 * 60k subscriptions and 3M plays (BENCH_PLAYS). The rollups are then rebuilt from the ledger by the same function
 * the migration uses (the load runs with triggers off, as a bulk import would).
 */
export const SCALE = {
  orders: Number(process.env.BENCH_ORDERS ?? 1_000_000),
  plays: Number(process.env.BENCH_PLAYS ?? 3_000_000),
  users: 100_000,
  artists: 1_000,
  albums: 10_000,
  songs: 100_000,
  subscriptions: 60_000,
  days: 730,
};

export const BENCH_ADMIN_TOKEN = 'dashboard-bench-admin-session-token-0123456789';
export const BENCH_ARTIST_TOKEN = 'dashboard-bench-artist-session-token-0123456789';

export async function seedLedger(client: pg.Client, tokenHash: (token: string) => string): Promise<void> {
  const s = SCALE;
  const step = async (what: string, text: string) => {
    const started = Date.now();
    await client.query(text);
    console.log(`  ${what.padEnd(34)} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  // Ids derived from names (md5, shaped as version-4 UUIDs), so the bench can name an artist without a lookup.
  await client.query(
    `CREATE FUNCTION bench_id(text) RETURNS uuid LANGUAGE sql IMMUTABLE AS
     $$ SELECT overlay(overlay(md5($1) PLACING '4' FROM 13) PLACING '8' FROM 17)::uuid $$`,
  );
  await client.query(`SET session_replication_role = replica`);
  await client.query(`SELECT setseed(0.42)`);
  await step(
    'users',
    `INSERT INTO users (id, name, email, role)
     SELECT bench_id('user' || i), 'Listener ' || i, 'listener' || i || '@bench.test',
            (CASE WHEN i = 1 THEN 'admin' WHEN i = 2 THEN 'artist' ELSE 'user' END)::role
     FROM generate_series(1, ${s.users}) i`,
  );
  await client.query(
    `INSERT INTO sessions (user_id, token_hash, expires_at) VALUES
     (bench_id('user1'), $1, now() + interval '1 day'), (bench_id('user2'), $2, now() + interval '1 day')`,
    [tokenHash(BENCH_ADMIN_TOKEN), tokenHash(BENCH_ARTIST_TOKEN)],
  );
  await step(
    'artists, albums, songs',
    `INSERT INTO artists (id, name, owner_user_id, subscription_price, currency, search_text)
     SELECT bench_id('artist' || i), 'Artist ' || i, CASE WHEN i = 1 THEN bench_id('user2') END,
            299 + (i % 4) * 100, CASE WHEN i % 20 = 7 THEN 'EUR' ELSE 'USD' END, 'artist ' || i
     FROM generate_series(1, ${s.artists}) i;
     INSERT INTO albums (id, artist_id, title, price, currency)
     SELECT bench_id('album' || i), bench_id('artist' || (1 + i % ${s.artists})), 'Album ' || i,
            599 + (i % 10) * 100, CASE WHEN (1 + i % ${s.artists}) % 20 = 7 THEN 'EUR' ELSE 'USD' END
     FROM generate_series(1, ${s.albums}) i;
     INSERT INTO songs (id, artist_id, album_id, title, singer, access_type, price, currency, status, duration_sec)
     SELECT bench_id('song' || i), bench_id('artist' || (1 + (i % ${s.albums}) % ${s.artists})),
            bench_id('album' || (i % ${s.albums})), 'Song ' || i, 'Singer',
            (CASE WHEN i % 3 = 0 THEN 'subscription' ELSE 'purchase-only' END)::access_type, 99 + (i % 5) * 25,
            CASE WHEN (1 + (i % ${s.albums}) % ${s.artists}) % 20 = 7 THEN 'EUR' ELSE 'USD' END, 'ready', 180
     FROM generate_series(1, ${s.songs}) i;
     UPDATE songs SET album_id = NULL WHERE album_id = bench_id('album0')`,
  );
  // Orders: 60 % songs, 15 % albums, 25 % subscriptions (most of them renewals); popular items sell most.
  await step(
    `orders (${s.orders.toLocaleString('en-US')})`,
    `CREATE TEMP TABLE bench_orders AS
     SELECT i, bench_id('order' || i) AS id, r1, r2, r3,
            CASE WHEN r1 < 0.60 THEN 'song' WHEN r1 < 0.75 THEN 'album' ELSE 'subscription' END::item_type AS item_type,
            1 + floor(power(random(), 2.5) * ${s.songs})::int AS song_n,
            1 + floor(power(random(), 2.5) * ${s.albums})::int AS album_n,
            1 + floor(power(random(), 2.0) * ${s.artists})::int AS artist_n,
            1 + floor(random() * ${s.users})::int AS user_n,
            now() - (random() * ${s.days}) * interval '1 day' AS at
     FROM (SELECT i, random() AS r1, random() AS r2, random() * 100 AS r3 FROM generate_series(1, ${s.orders}) i) g;
     INSERT INTO orders (id, user_id, item_type, song_id, album_id, artist_id, item_title, cycle, amount, currency,
                         gateway, status, external_id, renewal, created_at, updated_at)
     SELECT o.id, bench_id('user' || o.user_n), o.item_type,
            CASE WHEN o.item_type = 'song' THEN so.id END, CASE WHEN o.item_type = 'album' THEN al.id END,
            CASE o.item_type WHEN 'song' THEN so.artist_id WHEN 'album' THEN al.artist_id ELSE ar.id END,
            'Item ' || o.i, CASE WHEN o.item_type = 'subscription' THEN '1m' END,
            CASE o.item_type WHEN 'song' THEN so.price WHEN 'album' THEN al.price ELSE ar.subscription_price END,
            CASE o.item_type WHEN 'song' THEN so.currency WHEN 'album' THEN al.currency ELSE ar.currency END,
            (CASE WHEN o.r2 < 0.45 THEN 'stripe' WHEN o.r2 < 0.70 THEN 'razorpay' WHEN o.r2 < 0.95 THEN 'paypal'
                  ELSE 'sandbox' END)::gateway,
            (CASE WHEN o.r3 < 93 THEN 'paid' WHEN o.r3 < 96 THEN 'failed' WHEN o.r3 < 97 THEN 'pending'
                  WHEN o.r3 < 98 THEN 'cancelled' WHEN o.r3 < 99.5 THEN 'refunded' ELSE 'disputed' END)::order_status,
            'ext_' || o.i, o.item_type = 'subscription' AND o.r2 < 0.8, o.at, o.at
     FROM bench_orders o
     JOIN songs so ON so.id = bench_id('song' || o.song_n)
     JOIN albums al ON al.id = bench_id('album' || o.album_n)
     JOIN artists ar ON ar.id = bench_id('artist' || o.artist_n)`,
  );
  await step(
    'payments and refunds',
    `INSERT INTO payments (order_id, gateway, external_id, amount, currency, status, created_at)
     SELECT id, gateway, 'pay_' || external_id, amount, currency,
            CASE WHEN status = 'failed' THEN 'failed' ELSE 'succeeded' END, created_at + interval '5 seconds'
     FROM orders WHERE status IN ('paid', 'failed', 'refunded', 'disputed');
     INSERT INTO refunds (order_id, gateway, external_id, kind, amount, currency, created_at)
     SELECT id, gateway, 're_' || external_id, (CASE WHEN status = 'disputed' THEN 'dispute' ELSE 'refund' END)::refund_kind,
            amount, currency, least(now(), created_at + (1 + random() * 9) * interval '1 day')
     FROM orders WHERE status IN ('refunded', 'disputed')`,
  );
  await step(
    `subscriptions (${s.subscriptions.toLocaleString('en-US')})`,
    `INSERT INTO subscriptions (user_id, artist_id, status, cycle, gateway, created_at, current_period_start,
                                current_period_end, amount, currency)
     SELECT bench_id('user' || (1 + floor(random() * ${s.users})::int)),
            bench_id('artist' || (1 + floor(power(random(), 2.0) * ${s.artists})::int)),
            (CASE WHEN t.ends > now() THEN 'active' ELSE 'expired' END)::subscription_status, '1m', 'stripe',
            g.starts, t.ends - interval '30 days', t.ends, 499, 'USD'
     FROM (SELECT now() - (random() * ${s.days}) * interval '1 day' AS starts FROM generate_series(1, ${s.subscriptions})) g
     CROSS JOIN LATERAL (SELECT g.starts + (1 + floor(random() * 12)) * interval '30 days' AS ends) t`,
  );
  await step(
    `plays (${s.plays.toLocaleString('en-US')})`,
    `INSERT INTO plays (user_id, song_id, seconds_listened, played_at)
     SELECT bench_id('user' || (1 + floor(random() * ${s.users})::int)),
            bench_id('song' || (1 + floor(power(random(), 3.0) * ${s.songs})::int)), 120,
            now() - (random() * ${s.days}) * interval '1 day'
     FROM generate_series(1, ${s.plays})`,
  );
  await client.query(`SET session_replication_role = origin`);
  await step('rollups (dashboard_rebuild_rollups)', `SELECT dashboard_rebuild_rollups()`);
  await step('vacuum analyze', `VACUUM ANALYZE`);
}
