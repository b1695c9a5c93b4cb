import { and, asc, count, inArray, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { albums, artists, songs } from '../../db/schema';
import { albumColumns, type AlbumRow } from './album.repository';
import { artistColumns, type ArtistRow } from './artist.repository';
import type { PageWindow, Paged } from './catalog.pagination';
import { songListColumns, type SongRow } from './song.repository';

type Operand = AnyColumn | SQLWrapper;

/**
 * At most this many matching rows are ranked. A term found in more rows than this (a stop word such as "the")
 * gets its best results from the first candidates found: the ranking work stays bounded at any catalogue size.
 */
export const SEARCH_CANDIDATES = 1000;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * Rows whose search text contains the normalised query, or has a word similar to it (pg_trgm `<%`, threshold
 * `pg_trgm.word_similarity_threshold` = 0.6: "beatls" finds "the beatles"). Both are answered by the GIN
 * trigram index. A query under three characters has no whole trigram, so only the word test applies.
 */
export function matches(column: Operand, term: string): SQL {
  const similarWord = sql`${term} <% ${column}`;
  if (term.length < 3) return similarWord;
  return sql`(${contains(column, term)} or ${similarWord})`;
}

const contains = (column: Operand, term: string) => sql`${column} like ${`%${escapeLike(term)}%`}`;

/**
 * The best `limit` rows, read by `query` for a match condition. Rows that merely resemble the query rank after
 * every row that contains it, so when enough rows contain it (a common word) the costly similarity test is
 * skipped altogether.
 */
async function bestRows<T>(
  column: Operand,
  term: string,
  limit: number,
  query: (condition: SQL) => Promise<T[]>,
): Promise<T[]> {
  if (term.length >= 3) {
    const containing = await query(contains(column, term));
    if (containing.length >= limit) return containing;
  }
  return query(matches(column, term));
}

/**
 * Exact match, then prefix, then a word starting with the query, then any substring, then similar words by
 * similarity; shorter texts first within a group. word_similarity is only computed for rows without the
 * substring, where it decides the order.
 */
export function bestMatchFirst(column: Operand, term: string, id: Operand): SQL[] {
  const prefix = `${escapeLike(term)}%`;
  const hasTerm = sql`${column} like ${`%${prefix}`}`;
  return [
    sql`case when ${column} = ${term} then 0 when ${column} like ${prefix} then 1
      when ${column} like ${`% ${prefix}`} then 2 when ${hasTerm} then 3 else 4 end`,
    sql`case when ${hasTerm} then 0 else 1 - word_similarity(${term}, ${column}) end`,
    sql`length(${column})`,
    asc(id as AnyColumn),
  ];
}

/**
 * Runs a search statement with sequential scans disabled. The planner prices pg_trgm's operators like a cheap
 * comparison, so on small and mid-sized tables it prefers scanning every row and calling word_similarity() on
 * each, which is far slower than the trigram index it skipped (70 ms instead of 1 ms on 2k albums in PGlite).
 */
function withTrigramIndex<T>(db: AppDb, run: (tx: AppDb) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return run(tx as unknown as AppDb);
  });
}

export class SearchRepository {
  constructor(private readonly db: AppDb) {}

  /** Ids of the best `limit` ready songs among the capped candidates: the part the trigram index answers. */
  songIdsQuery(
    term: string,
    limit: number,
    db: AppDb = this.db,
    condition = matches(songs.searchText, term),
  ) {
    const candidates = db
      .select({ id: songs.id, searchText: songs.searchText })
      .from(songs)
      // status compared as text: not answerable by the (status, created_at) index, so the planner cannot pick that
      // index and test the trigram condition on every ready song; the trigram index must find the candidates.
      .where(and(sql`${songs.status}::text = 'ready'`, condition))
      .limit(SEARCH_CANDIDATES)
      .as('candidates');
    return db
      .select({ id: candidates.id })
      .from(candidates)
      .orderBy(...bestMatchFirst(candidates.searchText, term, candidates.id))
      .limit(limit);
  }

  songs(term: string, limit: number): Promise<SongRow[]> {
    return withTrigramIndex(this.db, async (tx) => {
      return bestRows(songs.searchText, term, limit, (condition) =>
        tx
          .select(songListColumns)
          .from(songs)
          .where(inArray(songs.id, this.songIdsQuery(term, limit, tx, condition)))
          .orderBy(...bestMatchFirst(songs.searchText, term, songs.id)),
      );
    });
  }

  async artists(term: string, limit: number): Promise<ArtistRow[]> {
    return (await this.artistsPage(term, { limit, offset: 0 }, false)).rows;
  }

  /** Paged artist search with the number of (capped) matches, for GET /artists?q=. */
  artistsPage(term: string, window: PageWindow, withTotal = true): Promise<Paged<ArtistRow>> {
    return withTrigramIndex(this.db, async (tx) => {
      const candidates = () =>
        tx
          .select({ id: artists.id, searchText: artists.searchText })
          .from(artists)
          .where(matches(artists.searchText, term))
          .limit(SEARCH_CANDIDATES)
          .as('candidates');
      const page = candidates();
      const pageIds = tx
        .select({ id: page.id })
        .from(page)
        .orderBy(...bestMatchFirst(page.searchText, term, page.id))
        .limit(window.limit)
        .offset(window.offset);
      // One connection inside the transaction: the two statements run one after the other.
      const rows = await tx
        .select(artistColumns)
        .from(artists)
        .where(inArray(artists.id, pageIds))
        .orderBy(...bestMatchFirst(artists.searchText, term, artists.id));
      const total = withTotal
        ? ((await tx.select({ total: count() }).from(candidates()))[0]?.total ?? 0)
        : rows.length;
      return { rows, total };
    });
  }

  albums(term: string, limit: number): Promise<AlbumRow[]> {
    return withTrigramIndex(this.db, async (tx) => {
      return bestRows(albums.searchText, term, limit, (condition) => {
        const candidates = tx
          .select({ id: albums.id, searchText: albums.searchText })
          .from(albums)
          .where(condition)
          .limit(SEARCH_CANDIDATES)
          .as('candidates');
        const best = tx
          .select({ id: candidates.id })
          .from(candidates)
          .orderBy(...bestMatchFirst(candidates.searchText, term, candidates.id))
          .limit(limit);
        return tx
          .select(albumColumns)
          .from(albums)
          .where(inArray(albums.id, best))
          .orderBy(...bestMatchFirst(albums.searchText, term, albums.id));
      });
    });
  }
}
