import { sql } from 'drizzle-orm';
import { type Database, hashToken, sessions, users } from '@backbeat/server/db';

/** Catalogue sizes: songs, with artists and albums scaled to 10k artists and 20k albums at 100k songs. */
export const SIZES = [1_000, 10_000, 100_000];

export const GENRES = [
  'Electronic',
  'Hip-Hop',
  'Jazz',
  'Rock',
  'Pop',
  'Ambient',
  'Lo-Fi',
  'Classical',
  'Soul',
  'Folk',
  'Metal',
  'Latin',
];

// 300 title words: with two words per title each word appears in about 0.7 % of titles, like real catalogues.
export const WORDS =
  `midnight drive neon harbor velvet ember quartz cobalt amber river saint tide lumen echo park nova
  shadow light golden silver crystal winter summer autumn spring ocean desert forest mountain city street
  dream fever heart soul spirit ghost angel devil fire water earth wind storm thunder rain snow cloud sky
  star moon sun planet galaxy orbit rocket signal static radio wave pulse rhythm groove beat bass drum
  piano guitar violin horn choir anthem ballad lullaby hymn requiem sonata overture interlude reprise
  coda prelude fugue nocturne serenade waltz tango samba rumba mambo bolero disco funk blues jazz swing
  soul rock metal punk grunge indie folk country western gospel reggae dub ska house techno trance
  garden window mirror shadowland paradise highway runway subway railway harbour lighthouse island
  canyon valley meadow prairie glacier volcano jungle savanna tundra lagoon delta reef horizon skyline
  avenue boulevard alley bridge tunnel tower castle palace temple chapel cathedral station market
  diamond ruby emerald sapphire pearl marble granite copper iron steel chrome neon-lit paper glass
  morning evening twilight dawn dusk noon daybreak nightfall sunset sunrise moonrise starlight
  memory promise secret mystery story legend myth fable riddle puzzle question answer reason season
  lonely happy broken golden wild quiet loud slow fast young old new lost found hidden open closed
  dancing running falling flying burning shining fading rising drifting floating dreaming waiting
  tonight forever always never maybe someday yesterday tomorrow everywhere nowhere somewhere home
  love kiss touch whisper scream laugh smile tears blood bones skin eyes hands lips voice name
  king queen prince princess knight soldier sailor pilot driver stranger lover friend enemy rebel
  electric magnetic cosmic atomic sonic static analog digital virtual crystal liquid solid hollow
  sugar honey candy cherry lemon orange peach berry vanilla coffee whiskey wine champagne
  paris tokyo london berlin lagos havana cairo lima oslo delhi seoul sydney boston memphis`
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 300);
const SYLLABLES =
  'ka lo mi ra ven tor sil an bel cor da el fa gi ho iz jun ke lu ma no pe qui ro sa ti ul vo wy xa'.split(
    ' ',
  );
const SURNAMES =
  'Reyes Park Stone Vale Cruz Moon Fox Gray Knox Lane Rivers Quinn Hart Wolfe Snow Frost'.split(' ');

const pgArray = (items: string[]) =>
  sql.raw(`(array[${items.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}])`);

/**
 * Bulk catalogue by generate_series, in the shapes the app writes: deterministic ids (md5 -> uuid), lower-cased
 * search text (the generated names have no accents, so lower() equals toSearchText()), 98 % of songs ready.
 */
export async function seedCatalogue(database: Database, songCount: number): Promise<void> {
  const artistCount = Math.max(10, songCount / 10);
  const albumCount = Math.max(20, songCount / 5);
  const words = pgArray(WORDS);
  const syllables = pgArray(SYLLABLES);
  const surnames = pgArray(SURNAMES);
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into genres (id, name, slug)
      select md5('genre' || i)::uuid, g, lower(g) from unnest(${pgArray(GENRES)}) with ordinality as t(g, i)`);
    await tx.execute(sql`
      insert into artists (id, name, search_text, genre_id, created_at)
      select md5('artist' || i)::uuid, n, lower(n), md5('genre' || (1 + i % 12))::uuid,
             now() - make_interval(secs => i)
      from generate_series(1, ${artistCount}) as i,
           lateral (select initcap(${syllables}[1 + i % 30] || ${syllables}[1 + (i / 30) % 30]) || ' '
                          || ${surnames}[1 + (i / 900) % 16] || ' ' || i as n) as named`);
    await tx.execute(sql`
      insert into albums (id, artist_id, title, search_text, genre_id, price, is_premium, release_date, created_at)
      select md5('album' || j)::uuid, md5('artist' || (1 + j % ${artistCount}))::uuid, t, lower(t || ' ' || a.name),
             md5('genre' || (1 + j % 12))::uuid, 999, j % 10 = 0,
             now() - make_interval(days => j % 3650), now() - make_interval(secs => j)
      from generate_series(1, ${albumCount}) as j
      join artists a on a.id = md5('artist' || (1 + j % ${artistCount}))::uuid,
           lateral (select initcap(${words}[1 + (j * 7) % 300] || ' ' || ${words}[1 + (j * 13) % 300]) as t) as titled`);
    await tx.execute(sql`
      insert into songs (id, artist_id, album_id, track_number, title, singer, genre_id, access_type, price,
                         duration_sec, status, search_text, created_at)
      select md5('song' || i)::uuid, a.id, md5('album' || (1 + i % ${albumCount}))::uuid, 1 + i / ${albumCount}, t, a.name,
             md5('genre' || (1 + i % 12))::uuid,
             (case when i % 3 = 0 then 'purchase-only' else 'subscription' end)::access_type, 199, 180 + i % 120,
             (case when i % 100 = 0 then 'processing' when i % 100 = 1 then 'failed' else 'ready' end)::processing_status,
             lower(t || ' ' || a.name), now() - make_interval(secs => i)
      from generate_series(1, ${songCount}) as i
      join artists a on a.id = md5('artist' || (1 + (1 + i % ${albumCount}) % ${artistCount}))::uuid,
           lateral (select initcap(${words}[1 + (i * 17) % 300] || ' ' || ${words}[1 + (i * 31 + i / 300) % 300]) as t) as titled`);
  });
  // A server that has been running has autovacuum's statistics and merged GIN pending lists.
  await database.query(sql`vacuum analyze`);
}

/** One listener account with an open session for `token` (no purchases, no subscriptions). */
export async function seedListener(database: Database, token: string): Promise<void> {
  const [user] = await database.db
    .insert(users)
    .values({ name: 'Bench Listener', email: 'listener@bench.test', role: 'user' })
    .returning({ id: users.id });
  await database.db.insert(sessions).values({
    userId: user!.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
  });
}
