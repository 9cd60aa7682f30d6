import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';

/**
 * Search over past polls (issue 39, item 2) with each database's own full-text search, one
 * interface over both (search/search.repository.ts). `poll_search` holds each poll's searchable
 * text, one row per poll: its question, description and staff note (empty until notes exist),
 * written only by `indexPollText` (search/search-index.ts).
 *
 * - SQLite: an FTS5 table, its rowid the poll's id, Porter stemming over unicode61 (diacritics
 *   folded); a trigger deletes a poll's row with the poll.
 * - PostgreSQL: a table whose `document` is a stored tsvector (English; question weighted A,
 *   description B, note C) with a GIN index; the row goes with its poll (foreign key).
 *
 * Every poll there is is indexed here, so search works at once on an existing site.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create table poll_search (
      poll_id integer primary key references polls(id) on delete cascade,
      question text not null,
      description text not null,
      note text not null,
      document tsvector generated always as (
        setweight(to_tsvector('english'::regconfig, question), 'A') ||
        setweight(to_tsvector('english'::regconfig, description), 'B') ||
        setweight(to_tsvector('english'::regconfig, note), 'C')
      ) stored
    )`.execute(db);
    await sql`create index poll_search_document on poll_search using gin (document)`.execute(db);
    await sql`insert into poll_search (poll_id, question, description, note)
      select id, question, coalesce(description, ''), '' from polls`.execute(db);
    return;
  }
  await sql`create virtual table poll_search using fts5(
    question, description, note, tokenize = 'porter unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger poll_search_delete after delete on polls begin
    delete from poll_search where rowid = old.id;
  end`.execute(db);
  await sql`insert into poll_search (rowid, question, description, note)
    select id, question, coalesce(description, ''), '' from polls`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await sql`drop trigger if exists poll_search_delete`.execute(db);
  await sql`drop table poll_search`.execute(db);
}
