/**
 * The search index's one writer (issue 39, item 2): each poll's searchable text, a row per poll
 * in `poll_search` (migration 0023). Call `indexPollText` in the transaction that changes the
 * text: polls.repository.ts does for a poll's question and description, and a staff note's
 * save does for its note. A field left out keeps what the index holds.
 */
import { sql } from 'kysely';
import { isPostgres, type Db } from './connection.js';

export interface PollText {
  question?: string;
  description?: string | null;
  /** The staff note's text (plain, or its Markdown source: its words are what count). */
  note?: string | null;
}

/**
 * The search index keeps no control characters: the marks search puts around matched words
 * (search.repository.ts) are two of them, so no text can fake or break one.
 */
const CONTROL = /[\p{Cc}\p{Cs}]/gu;
const clean = (text: string | null | undefined) => (text ?? '').replace(CONTROL, ' ');

interface Row {
  question: string;
  description: string;
  note: string;
}

/** (Re)indexes one poll's text; run it in the transaction that changes the text. */
export async function indexPollText(trx: Db, pollId: number, text: PollText): Promise<void> {
  const postgres = isPostgres(trx);
  const { rows } = postgres
    ? await sql<Row>`select question, description, note from poll_search where poll_id = ${pollId}`.execute(trx)
    : await sql<Row>`select question, description, note from poll_search where rowid = ${pollId}`.execute(trx);
  const was = rows[0];
  const question = text.question === undefined ? (was?.question ?? '') : clean(text.question);
  const description = text.description === undefined ? (was?.description ?? '') : clean(text.description);
  const note = text.note === undefined ? (was?.note ?? '') : clean(text.note);
  if (postgres) {
    await sql`insert into poll_search (poll_id, question, description, note)
      values (${pollId}, ${question}, ${description}, ${note})
      on conflict (poll_id) do update set question = excluded.question,
        description = excluded.description, note = excluded.note`.execute(trx);
  } else {
    // FTS5 has no upsert: the old row goes, the new one comes.
    if (was) await sql`delete from poll_search where rowid = ${pollId}`.execute(trx);
    await sql`insert into poll_search (rowid, question, description, note)
      values (${pollId}, ${question}, ${description}, ${note})`.execute(trx);
  }
}
