/**
 * Full-text search over past polls (issue 39, item 2), one interface over each database's own:
 * SQLite's FTS5 (bm25, highlight) and PostgreSQL's tsvector (ts_rank, ts_headline) over
 * `poll_search` (migration 0023, written by db/search-index.ts). Only past polls are found:
 * today's and scheduled ones are indexed but joined away here.
 *
 * The words come from `searchTerms` (letters and digits only), so neither database ever reads
 * query syntax from a visitor: SQLite gets each word as a quoted string, PostgreSQL gets them
 * through plainto_tsquery. Matched words come back between MARK_START and MARK_END, control
 * characters the index never holds (db/search-index.ts), and are split into MarkedText here.
 */
import { sql, type RawBuilder } from 'kysely';
import type { MarkedText, SearchHit } from '../../shared/api.js';
import { isPostgres, type Db } from '../db/connection.js';
import { topicsOfPolls } from '../polls/poll-topics.repository.js';

const MARK_START = '\u0002';
const MARK_END = '\u0003';

/** Column weights: a word in the question counts most, then the description, then the note. */
const SQLITE_WEIGHTS = sql`10.0, 4.0, 2.0`;
/** ts_rank's weights, for D, C, B and A (the note is C, the description B, the question A). */
const POSTGRES_WEIGHTS = '{0.05, 0.2, 0.4, 1.0}';

export interface SearchFilter {
  terms: readonly string[];
  topicId: number | undefined;
  year: number | undefined;
  limit: number;
  offset: number;
}

export interface SearchRow {
  id: number;
  pollNumber: number;
  liveDate: string;
  totalVotes: number;
  question: MarkedText;
  description: MarkedText;
  note: MarkedText;
}

interface RawRow {
  id: number;
  poll_number: number;
  live_date: string;
  total_votes: number | string | null;
  question: string;
  description: string;
  note: string;
}

/** "a \u0002b\u0003 c" as ['a ', 'b', ' c']: plain text at even indexes, marked words at odd ones. */
export function splitMarks(text: string): MarkedText {
  const parts: MarkedText = [];
  let rest = text;
  for (;;) {
    const start = rest.indexOf(MARK_START);
    const end = start === -1 ? -1 : rest.indexOf(MARK_END, start);
    if (end === -1) {
      parts.push(rest.replaceAll(MARK_START, '').replaceAll(MARK_END, ''));
      return parts;
    }
    parts.push(rest.slice(0, start).replaceAll(MARK_END, ''), rest.slice(start + 1, end));
    rest = rest.slice(end + 1);
  }
}

/** The filters past polls share in both databases. */
function pollFilters(filter: SearchFilter): RawBuilder<unknown> {
  const year =
    filter.year === undefined
      ? sql``
      : sql` and p.live_date >= ${`${filter.year}-01-01`} and p.live_date < ${`${filter.year + 1}-01-01`}`;
  const topic =
    filter.topicId === undefined
      ? sql``
      : sql` and exists (select 1 from poll_topics t where t.poll_id = p.id and t.topic_id = ${filter.topicId})`;
  return sql`p.status = 'past'${year}${topic}`;
}

/** Each listed poll's number, day and total votes, by id: read for a page's polls only. */
async function pollsOf(db: Db, ids: number[]): Promise<Map<number, Omit<RawRow, 'question' | 'description' | 'note'>>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('polls as p')
    .leftJoin('poll_options as o', 'o.poll_id', 'p.id')
    .select(['p.id', 'p.poll_number', 'p.live_date'])
    .select((eb) => eb.fn.sum<number | string | null>('o.vote_count').as('total_votes'))
    .where('p.id', 'in', ids)
    .groupBy(['p.id', 'p.poll_number', 'p.live_date'])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * SQLite: the matches ranked (bm25 over every match, nothing else computed for them), then the
 * page's rows marked (highlight, only for the page's ids) and their polls read.
 */
async function searchSqlite(db: Db, filter: SearchFilter): Promise<{ total: number; rows: RawRow[] }> {
  // Each word a quoted string: FTS5 reads no operator, column filter or prefix from it.
  const match = filter.terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' ');
  const where = sql`poll_search match ${match} and ${pollFilters(filter)}`;
  const count = await sql<{
    n: number | string;
  }>`select count(*) as n from poll_search join polls p on p.id = poll_search.rowid
    where ${where}`.execute(db);
  const total = Number(count.rows[0]?.n ?? 0);
  if (total <= filter.offset) return { total, rows: [] };
  const ranked = await sql<{ id: number }>`select poll_search.rowid as id
    from poll_search join polls p on p.id = poll_search.rowid
    where ${where}
    order by bm25(poll_search, ${SQLITE_WEIGHTS}), p.live_date desc, p.poll_number desc
    limit ${filter.limit} offset ${filter.offset}`.execute(db);
  const ids = ranked.rows.map((row) => row.id);
  if (ids.length === 0) return { total, rows: [] };
  const [marked, polls] = await Promise.all([
    sql<{ id: number; question: string; description: string; note: string }>`select rowid as id,
        highlight(poll_search, 0, char(2), char(3)) as question,
        highlight(poll_search, 1, char(2), char(3)) as description,
        highlight(poll_search, 2, char(2), char(3)) as note
      from poll_search where poll_search match ${match} and rowid in (${sql.join(ids)})`.execute(db),
    pollsOf(db, ids),
  ]);
  const marks = new Map(marked.rows.map((row) => [row.id, row]));
  const rows: RawRow[] = [];
  for (const id of ids) {
    const poll = polls.get(id);
    const text = marks.get(id);
    if (poll && text) rows.push({ ...poll, question: text.question, description: text.description, note: text.note });
  }
  return { total, rows };
}

/** PostgreSQL: ranked and cut to the page first; only the page's rows are marked (ts_headline is not cheap). */
async function searchPostgres(db: Db, filter: SearchFilter): Promise<{ total: number; rows: RawRow[] }> {
  const query = sql`plainto_tsquery('english', ${filter.terms.join(' ')})`;
  const where = sql`s.document @@ ${query} and ${pollFilters(filter)}`;
  const marks = `StartSel=${MARK_START}, StopSel=${MARK_END}, HighlightAll=true`;
  const headline = (column: string) => sql`ts_headline('english', r.${sql.ref(column)}, ${query}, ${marks})`;
  const [count, found] = await Promise.all([
    sql<{ n: number | string }>`select count(*) as n from poll_search s join polls p on p.id = s.poll_id
      where ${where}`.execute(db),
    sql<RawRow>`select r.id, r.poll_number, r.live_date,
        (select sum(o.vote_count) from poll_options o where o.poll_id = r.id) as total_votes,
        ${headline('question')} as question, ${headline('description')} as description, ${headline('note')} as note
      from (
        select p.id, p.poll_number, p.live_date, s.question, s.description, s.note,
          ts_rank(${POSTGRES_WEIGHTS}::float4[], s.document, ${query}) as rank
        from poll_search s join polls p on p.id = s.poll_id
        where ${where}
        order by rank desc, p.live_date desc, p.poll_number desc
        limit ${filter.limit} offset ${filter.offset}
      ) r
      order by r.rank desc, r.live_date desc, r.poll_number desc`.execute(db),
  ]);
  return { total: Number(count.rows[0]?.n ?? 0), rows: found.rows };
}

/** A page of the past polls matching every one of `terms` (at least one), best first, with their matches marked. */
export async function searchPastPolls(db: Db, filter: SearchFilter): Promise<{ total: number; rows: SearchRow[] }> {
  const { total, rows } = await (isPostgres(db) ? searchPostgres(db, filter) : searchSqlite(db, filter));
  return {
    total,
    rows: rows.map((row) => ({
      id: row.id,
      pollNumber: row.poll_number,
      liveDate: row.live_date,
      totalVotes: Number(row.total_votes ?? 0),
      question: splitMarks(row.question),
      description: splitMarks(row.description),
      note: splitMarks(row.note),
    })),
  };
}

/** A page of results with each poll's topics: what a search reads, in whichever thread it runs. */
export async function findPastPolls(db: Db, filter: SearchFilter): Promise<{ total: number; hits: SearchHit[] }> {
  const { total, rows } = await searchPastPolls(db, filter);
  const topics = await topicsOfPolls(
    db,
    rows.map((row) => row.id),
  );
  return { total, hits: rows.map((row) => ({ ...row, topics: topics.get(row.id) ?? [] })) };
}

/** The years that have past polls, newest first: the search's year filter offers these. */
export async function pastPollYears(db: Db): Promise<number[]> {
  const row = await db
    .selectFrom('polls')
    .select((eb) => [eb.fn.min('live_date').as('first'), eb.fn.max('live_date').as('last')])
    .where('status', '=', 'past')
    .executeTakeFirst();
  if (!row?.first || !row.last) return [];
  const years: number[] = [];
  for (let year = Number(row.last.slice(0, 4)); year >= Number(row.first.slice(0, 4)); year -= 1) {
    years.push(year);
  }
  return years;
}
