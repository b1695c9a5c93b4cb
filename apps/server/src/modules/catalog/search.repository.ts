import {
  and,
  asc,
  count,
  desc,
  inArray,
  isNull,
  sql,
  type AnyColumn,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import type { AppDb } from '../../db/client';
import { albums, artists, songs } from '../../db/schema';
import { albumColumns, type AlbumRow } from './album.repository';
import { artistColumns, type ArtistRow } from './artist.repository';
import type { PageWindow, Paged } from '../../platform/pagination';
import { isTypoOf } from './search-text';
import { songListColumns, type SongRow } from './song.repository';

type Operand = AnyColumn | SQLWrapper;

/**
 * At most this many matching rows are ranked. A term found in more rows than this (a stop word such as "the")
 * gets its best results from the first candidates found: the ranking work stays bounded at any catalogue size.
 */
export const SEARCH_CANDIDATES = 1000;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

const contains = (column: Operand, term: string) => sql`${column} like ${`%${escapeLike(term)}%`}`;

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

/** Which rows match a query, and how far a matching row is from it, for any column holding search text. */
export interface Match {
  where(column: Operand): SQL;
  /** 0 for a row that contains the query; up to 1 for the faintest resemblance. */
  distance(column: Operand): SQL;
  /** The same match narrowed to the rows that rank first (the best similar word), when that is a subset. */
  narrowest?: Match;
  /** `pg_trgm.word_similarity_threshold` the match's `<%` test runs with; pg_trgm's default when absent. */
  wordThreshold?: number;
  /** Only the substring test: a search that already read the rows containing the query has nothing more to read. */
  containsOnly?: boolean;
}

/** pg_trgm's default `word_similarity_threshold`, which `matches()` relies on. */
export const WORD_SIMILARITY = 0.6;
/**
 * A phrase's stricter first pass. Rows containing the phrase match at any threshold, and every other row ranks by
 * 1 - word_similarity(), so when the rows at least this similar fill the page they are exactly the page the
 * default threshold would give: without the 0.6..0.7 rows that share one common word of the phrase ("reyes"),
 * whose trigram rechecks made "kalo reyes" cost 15 ms instead of 7 at 100k songs.
 */
export const STRICT_WORD_SIMILARITY = 0.7;

/** Rows containing the query. */
export const containsMatch = (term: string): Match => ({
  where: (column) => contains(column, term),
  distance: () => sql`0::float8`,
  containsOnly: true,
});

/**
 * `matches()`: the row's own trigram similarity decides (phrases, and queries under three characters). From three
 * characters on, the rows at STRICT_WORD_SIMILARITY are tried first. Not under three: the `<%` test alone decides
 * those matches, so a substring row below the strict threshold could outrank the strict rows.
 */
export const directMatch = (term: string): Match => {
  const match: Match = {
    where: (column) => matches(column, term),
    distance: (column) =>
      sql`case when ${contains(column, term)} then 0 else 1 - word_similarity(${term}, ${column}) end`,
  };
  return term.length < 3
    ? match
    : { ...match, narrowest: { ...match, wordThreshold: STRICT_WORD_SIMILARITY } };
};

/**
 * Every distinct word of the catalogue's search texts (migration 0003, kept by triggers on songs, albums and
 * artists). Declared here rather than in the schema: only search reads it, and only the triggers write it.
 */
const searchWords = pgTable('search_words', { word: text('word').primaryKey() });

/** At most this many catalogue words similar to a misspelt query are looked for, of the best candidates. */
export const SIMILAR_WORDS = 30;
const SIMILAR_WORD_CANDIDATES = 100;

/**
 * A one-word query's typos are corrected against the `search_words` dictionary (a few thousand short rows) instead
 * of testing trigram similarity on every candidate row: words similar to the query by pg_trgm `%` (similarity
 * >= 0.3, which also forgives swapped letters: "lighthuose" -> "lighthouse") or `<%` (word similarity >= 0.6: a
 * word that contains most of it), and a few typos away (`isTypoOf`). Rows containing the query or one of those words match; a row's distance is its
 * best word's. At 100k songs this tests 30 substrings through the trigram index where the direct test rechecked
 * about 700 rows with word_similarity(). Phrases keep the direct test: their resemblance spans several words.
 */
export async function termMatch(db: AppDb, term: string): Promise<Match> {
  if (term.length < 3 || term.includes(' ')) return directMatch(term);
  const score = sql<number>`greatest(similarity(${term}, ${searchWords.word}), word_similarity(${term}, ${searchWords.word}))`;
  const similar = await db
    .select({ word: searchWords.word, score })
    .from(searchWords)
    .where(sql`(${term} % ${searchWords.word} or ${term} <% ${searchWords.word})`)
    .orderBy(desc(score), asc(searchWords.word))
    .limit(SIMILAR_WORD_CANDIDATES);
  // Trigram similarity alone would take "10" for "100"; the words must also be a few typos away. Words that
  // contain the query are matched by the substring test already.
  const words = similar
    .map((row) => ({ word: row.word, score: Number(row.score) }))
    .filter(({ word }) => !word.includes(term) && isTypoOf(term, word))
    .slice(0, SIMILAR_WORDS);
  if (words.length === 0) return containsMatch(term);
  const best = words.filter((word) => word.score === words[0]!.score);
  const full = wordsMatch(term, words);
  return best.length < words.length ? { ...full, narrowest: wordsMatch(term, best) } : full;
}

/** Looks a query's similar words up once, in whichever search transaction needs them first. */
export type SimilarLookup = (db: AppDb) => Promise<Match>;

export function similarOnce(term: string): SimilarLookup {
  let found: Promise<Match> | null = null;
  return (db) => (found ??= termMatch(db, term));
}

/** Rows containing the query or one of `words`; a row's distance is 1 - the score of the best word it holds. */
function wordsMatch(term: string, words: Array<{ word: string; score: number }>): Match {
  return {
    where: (column) =>
      sql`(${sql.join(
        [term, ...words.map(({ word }) => word)].map((word) => contains(column, word)),
        sql` or `,
      )})`,
    distance: (column) =>
      sql`case when ${contains(column, term)} then 0 ${sql.join(
        words.map(({ word, score }) => sql`when ${contains(column, word)} then ${1 - score}::float8`),
        sql` `,
      )} else 1 end`,
  };
}

/**
 * The best `limit` rows, read by `query` for a match. Rows that merely resemble the query rank after every row
 * that contains it, so when enough rows contain it (a common word) the similarity step is skipped; likewise rows
 * holding only lesser similar words rank after those holding the best one, so they are only read when needed
 * (and a phrase's rows below STRICT_WORD_SIMILARITY likewise). A query without similar words is answered by the
 * substring pass alone. A pass's word threshold is set for the rest of `tx` only (`set_config(..., true)`).
 */
async function bestRows<T>(
  tx: AppDb,
  term: string,
  limit: number,
  similar: () => Promise<Match>,
  query: (match: Match) => Promise<T[]>,
): Promise<T[]> {
  let containing: T[] | null = null;
  if (term.length >= 3) {
    containing = await query(containsMatch(term));
    if (containing.length >= limit) return containing;
  }
  const match = await similar();
  if (match.containsOnly && containing) return containing;
  let threshold = WORD_SIMILARITY;
  const run = async (stage: Match) => {
    const wanted = stage.wordThreshold ?? WORD_SIMILARITY;
    if (wanted !== threshold) {
      await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(wanted)}, true)`);
      threshold = wanted;
    }
    return query(stage);
  };
  if (match.narrowest) {
    const closest = await run(match.narrowest);
    if (closest.length >= limit) return closest;
  }
  return run(match);
}

/**
 * Exact match, then prefix, then a word starting with the query, then any substring, then similar words by
 * distance (the match decides it; see `termMatch`); shorter texts first within a group.
 */
export function bestMatchFirst(
  column: Operand,
  term: string,
  id: Operand,
  match: Match = directMatch(term),
): SQL[] {
  const prefix = `${escapeLike(term)}%`;
  return [
    sql`case when ${column} = ${term} then 0 when ${column} like ${prefix} then 1
      when ${column} like ${`% ${prefix}`} then 2 when ${column} like ${`%${prefix}`} then 3 else 4 end`,
    match.distance(column),
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

/**
 * Ids of the table's rows whose search text matches (among those `listed` keeps), best match first: the trigram
 * index finds at most SEARCH_CANDIDATES candidates, which alone are ranked. Limit (and offset) it to a page.
 */
function bestMatchIds(
  db: AppDb,
  table: typeof songs | typeof albums | typeof artists,
  listed: SQL | undefined,
  term: string,
  match: Match,
) {
  const candidates = db
    .select({ id: table.id, searchText: table.searchText })
    .from(table)
    .where(and(listed, match.where(table.searchText)))
    .limit(SEARCH_CANDIDATES)
    .as('candidates');
  return db
    .select({ id: candidates.id })
    .from(candidates)
    .orderBy(...bestMatchFirst(candidates.searchText, term, candidates.id, match));
}

export class SearchRepository {
  constructor(private readonly db: AppDb) {}

  /** Ids of the best `limit` ready songs among the capped candidates: the part the trigram index answers. */
  songIdsQuery(term: string, limit: number, db: AppDb = this.db, match: Match = directMatch(term)) {
    // status compared as text: not answerable by the (status, created_at) index, so the planner cannot pick that
    // index and test the trigram condition on every ready song; the trigram index must find the candidates.
    return bestMatchIds(db, songs, sql`${songs.status}::text = 'ready'`, term, match).limit(limit);
  }

  /** The best `limit` rows `query` finds for the term (see bestRows), in one transaction using the trigram index. */
  private best<T>(
    term: string,
    limit: number,
    similar: SimilarLookup,
    query: (tx: AppDb, match: Match) => Promise<T[]>,
  ): Promise<T[]> {
    return withTrigramIndex(this.db, (tx) =>
      bestRows(
        tx,
        term,
        limit,
        () => similar(tx),
        (match) => query(tx, match),
      ),
    );
  }

  songs(term: string, limit: number, similar = similarOnce(term)): Promise<SongRow[]> {
    return this.best(term, limit, similar, (tx, match) =>
      tx
        .select(songListColumns)
        .from(songs)
        .where(inArray(songs.id, this.songIdsQuery(term, limit, tx, match)))
        .orderBy(...bestMatchFirst(songs.searchText, term, songs.id, match)),
    );
  }

  /** The best `limit` artists (for the combined search): similar names are only looked for when needed. */
  artists(term: string, limit: number, similar = similarOnce(term)): Promise<ArtistRow[]> {
    return this.best(term, limit, similar, (tx, match) =>
      this.artistRows(tx, term, match, { limit, offset: 0 }),
    );
  }

  private artistRows(tx: AppDb, term: string, match: Match, window: PageWindow): Promise<ArtistRow[]> {
    const pageIds = bestMatchIds(tx, artists, undefined, term, match)
      .limit(window.limit)
      .offset(window.offset);
    return tx
      .select(artistColumns)
      .from(artists)
      .where(inArray(artists.id, pageIds))
      .orderBy(...bestMatchFirst(artists.searchText, term, artists.id, match));
  }

  /** Paged artist search with the number of (capped) matches, for GET /artists?q=. */
  artistsPage(term: string, window: PageWindow): Promise<Paged<ArtistRow>> {
    return withTrigramIndex(this.db, async (tx) => {
      const match = await termMatch(tx, term);
      // One connection inside the transaction: the two statements run one after the other.
      const rows = await this.artistRows(tx, term, match, window);
      const matching = tx
        .select({ id: artists.id })
        .from(artists)
        .where(match.where(artists.searchText))
        .limit(SEARCH_CANDIDATES)
        .as('matching');
      const total = (await tx.select({ total: count() }).from(matching))[0]?.total ?? 0;
      return { rows, total };
    });
  }

  albums(term: string, limit: number, similar = similarOnce(term)): Promise<AlbumRow[]> {
    return this.best(term, limit, similar, (tx, match) => {
      const best = bestMatchIds(tx, albums, isNull(albums.deletedAt), term, match).limit(limit);
      return tx
        .select(albumColumns)
        .from(albums)
        .where(inArray(albums.id, best))
        .orderBy(...bestMatchFirst(albums.searchText, term, albums.id, match));
    });
  }
}
