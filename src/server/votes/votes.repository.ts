/** The only place SQL about votes lives. */
import type { VoteRecord } from '../../shared/api.js';
import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { isPostgres, sqliteHandleOf, type Db } from '../db/connection.js';
import { precompiled } from '../db/precompiled.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.js';
import { toIsoString, type VoteStatus } from '../db/tables.js';
import type { VoterChoice } from '../polls/poll.js';
import { voterProfileOf, voterProfileSql } from '../weighting/profile-copy.js';

export interface NewVote {
  pollId: number;
  voterId: string;
  optionIndex: number;
  voterEmail: string | null;
  votedOn: string;
  createdAt: string;
  /** Counted unless its network was asked for a proof of work it did not bring (integrity/). */
  status?: VoteStatus;
  /** The address bucket and signals of integrity review; none for votes written by the demo and tests. */
  bucket?: string | null;
  pageMs?: number | null;
  cookieAgeS?: number | null;
}

/**
 * A vote as the columns it is written to. Integrity's columns are left out when not given (the
 * demo's and tests' votes): Kysely writes no column for an undefined value, so they take the
 * table's defaults.
 */
const voteRow = (vote: NewVote) => ({
  poll_id: vote.pollId,
  voter_id: vote.voterId,
  option_index: vote.optionIndex,
  voter_email: vote.voterEmail,
  voted_on: vote.votedOn,
  created_at: vote.createdAt,
  status: vote.status,
  bucket: vote.bucket,
  page_ms: vote.pageMs,
  cookie_age_s: vote.cookieAgeS,
  // The voter's profile as it is now, copied by the INSERT itself: no read before the write.
  voter_profile: voterProfileOf(sql`${vote.voterId}`),
});

/**
 * recorded: the vote is written, with the status it was given (counted, or held awaiting staff);
 * duplicate: this voter or this e-mail already voted on the poll; poll-gone: staff deleted the poll.
 */
export type InsertOutcome = 'recorded' | 'duplicate' | 'poll-gone';

/**
 * Inserts the vote unless this voter, or this e-mail, already voted on the poll. The unique
 * constraints decide, so two racing requests cannot both count, and a trigger adds the vote to
 * the option's tally in the same statement. The caller has checked that the poll is open, but
 * staff may have deleted it since: then the foreign key refuses the vote.
 */
export async function insertVoteIfNew(db: Db, vote: NewVote): Promise<InsertOutcome> {
  try {
    const inserted = await db
      .insertInto('votes')
      .values(voteRow(vote))
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .execute();
    return inserted.length > 0 ? 'recorded' : 'duplicate';
  } catch (error) {
    if (isForeignKeyViolation(error)) return 'poll-gone';
    throw error;
  }
}

/** What became of one vote of a batch: its outcome, or the error that stopped it alone. */
export type BatchResult = { outcome: InsertOutcome } | { error: unknown };

/**
 * Writes a batch of votes in one transaction (group commit), with every rule of
 * `insertVoteIfNew` applied to each vote, and gives each vote's outcome in the batch's order.
 * The batch must hold one vote at most per voter and per e-mail on a poll (the batcher sees
 * to it), so each vote's outcome is its own. SQLite runs the batch synchronously in one
 * transaction; PostgreSQL in one multi-row INSERT. When the batch as a whole fails, each of
 * its votes is tried again alone, so a failure stops only the votes it must.
 */
export async function insertVoteBatch(db: Db, votes: NewVote[]): Promise<BatchResult[]> {
  try {
    const outcomes = isPostgres(db) ? await insertBatchPostgres(db, votes) : await insertBatchSqlite(db, votes);
    return outcomes.map((outcome) => ({ outcome }));
  } catch {
    return Promise.all(
      votes.map((vote) =>
        insertVoteIfNew(db, vote).then(
          (outcome): BatchResult => ({ outcome }),
          (error: unknown): BatchResult => ({ error }),
        ),
      ),
    );
  }
}

/** The voter's profile copied by the prepared INSERT, from the voter id bound after the ten columns. */
const sqliteVoterProfile = voterProfileSql('?');

const sqliteInserts = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();

async function insertBatchSqlite(db: Db, votes: NewVote[]): Promise<InsertOutcome[]> {
  const sqlite = sqliteHandleOf(db);
  if (!sqlite) throw new Error('this SQLite database was not opened by openDatabase');
  let insert = sqliteInserts.get(sqlite);
  if (!insert) {
    insert = sqlite.prepare(
      `insert into votes (poll_id, voter_id, option_index, voter_email, voted_on, created_at,
         status, bucket, page_ms, cookie_age_s, voter_profile)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${sqliteVoterProfile}) on conflict do nothing returning id`,
    );
    sqliteInserts.set(sqlite, insert);
  }
  const statement = insert;
  const writeAll = sqlite.transaction((batch: NewVote[]) =>
    batch.map((vote): InsertOutcome => {
      try {
        const row = statement.get(
          vote.pollId,
          vote.voterId,
          vote.optionIndex,
          vote.voterEmail,
          vote.votedOn,
          vote.createdAt,
          vote.status ?? 'counted',
          vote.bucket ?? null,
          vote.pageMs ?? null,
          vote.cookieAgeS ?? null,
          vote.voterId,
        );
        return row === undefined ? 'duplicate' : 'recorded';
      } catch (error) {
        // A failed constraint undoes its own statement only; the transaction goes on.
        if (isForeignKeyViolation(error) && sqlite.inTransaction) return 'poll-gone';
        throw error;
      }
    }),
  );
  // Holding Kysely's one connection: no Kysely transaction is open on it meanwhile.
  return db.connection().execute(async () => writeAll.immediate(votes));
}

async function insertBatchPostgres(db: Db, votes: NewVote[]): Promise<InsertOutcome[]> {
  const key = (pollId: number, voterId: string) => `${pollId}\u0000${voterId}`;
  // In the order of the one-vote-per-voter key, (voter_id, poll_id): two instances inserting at
  // once wait for each other's rows in one order.
  const sorted = [...votes].sort((a, b) =>
    a.voterId < b.voterId ? -1 : a.voterId > b.voterId ? 1 : a.pollId - b.pollId,
  );
  // One statement text whatever the batch's size: ten arrays, unnested into rows in order.
  const { rows } = await sql<{ poll_id: number; voter_id: string }>`
    insert into votes (poll_id, voter_id, option_index, voter_email, voted_on, created_at,
      status, bucket, page_ms, cookie_age_s, voter_profile)
    select u.*, ${voterProfileOf(sql`u.voter_id`)} from unnest(${sorted.map((v) => v.pollId)}::integer[], ${sorted.map((v) => v.voterId)}::text[],
      ${sorted.map((v) => v.optionIndex)}::integer[], ${sorted.map((v) => v.voterEmail)}::text[],
      ${sorted.map((v) => v.votedOn)}::date[], ${sorted.map((v) => v.createdAt)}::timestamptz[],
      ${sorted.map((v) => v.status ?? 'counted')}::text[], ${sorted.map((v) => v.bucket ?? null)}::text[],
      ${sorted.map((v) => v.pageMs ?? null)}::integer[], ${sorted.map((v) => v.cookieAgeS ?? null)}::integer[])
      as u(poll_id, voter_id, option_index, voter_email, voted_on, created_at, status, bucket, page_ms, cookie_age_s)
    on conflict do nothing
    returning poll_id, voter_id`.execute(db);
  const inserted = new Set(rows.map((row) => key(row.poll_id, row.voter_id)));
  return votes.map((vote) => (inserted.has(key(vote.pollId, vote.voterId)) ? 'recorded' : 'duplicate'));
}

/** Inserts many votes at once (demo data); the tally triggers count them. */
export async function insertVotes(db: Db, votes: NewVote[]): Promise<void> {
  // Ten parameters a row; PostgreSQL allows 65,535 parameters a statement, SQLite 32,766.
  for (let start = 0; start < votes.length; start += 3000) {
    await db
      .insertInto('votes')
      .values(votes.slice(start, start + 3000).map(voteRow))
      .execute();
  }
}

const voterChoiceStatement = precompiled(2, (db: Db, pollId: number, voterId: string) =>
  db
    .selectFrom('votes')
    .select(['option_index', 'created_at', 'status'])
    .where('poll_id', '=', pollId)
    .where('voter_id', '=', voterId),
);

export async function findVoterChoice(db: Db, pollId: number, voterId: string): Promise<VoterChoice | undefined> {
  const [row] = await voterChoiceStatement(db, pollId, voterId);
  if (!row) return undefined;
  const choice = { optionIndex: row.option_index, votedAt: new Date(row.created_at).getTime() };
  return row.status === 'held' ? { ...choice, held: true } : choice;
}

/**
 * This voter's vote on the poll if it is counted: only a counted vote is in the group tallies,
 * so only it moves with its voter's profile. A held or discounted one stays out of them.
 */
export async function findCountedVoterChoice(
  db: Db,
  pollId: number,
  voterId: string,
): Promise<VoterChoice | undefined> {
  const row = await db
    .selectFrom('votes')
    .select(['option_index', 'created_at'])
    .where('poll_id', '=', pollId)
    .where('voter_id', '=', voterId)
    .where('status', '=', 'counted')
    .executeTakeFirst();
  return row && { optionIndex: row.option_index, votedAt: new Date(row.created_at).getTime() };
}

export async function isEmailUsedOnPoll(db: Db, pollId: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('votes')
    .select('id')
    .where('poll_id', '=', pollId)
    .where('voter_email', '=', email)
    .executeTakeFirst();
  return row !== undefined;
}

export type AttachOutcome = 'attached' | 'no-vote' | 'email-taken' | 'email-locked';

/**
 * Attaches an e-mail to this voter's vote. The e-mail may be on one vote per poll only (a
 * unique constraint), and a vote takes one e-mail and keeps it: attaching the same one again
 * is fine, another one is refused.
 */
export async function attachEmailToVote(
  db: Db,
  pollId: number,
  voterId: string,
  email: string,
): Promise<AttachOutcome> {
  try {
    const result = await db
      .updateTable('votes')
      .set({ voter_email: email })
      .where('poll_id', '=', pollId)
      .where('voter_id', '=', voterId)
      .where((eb) => eb.or([eb('voter_email', 'is', null), eb('voter_email', '=', email)]))
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) return 'attached';
    return (await findVoterChoice(db, pollId, voterId)) ? 'email-locked' : 'no-vote';
  } catch (error) {
    if (isUniqueViolation(error)) return 'email-taken';
    throw error;
  }
}

/** This voter's votes per day (site time zone), newest day first. */
export async function votesPerDay(db: Db, voterId: string): Promise<{ day: string; votes: number }[]> {
  const rows = await db
    .selectFrom('votes')
    .select((eb) => ['voted_on', eb.fn.countAll<number>().as('n')])
    .where('voter_id', '=', voterId)
    .groupBy('voted_on')
    .orderBy('voted_on', 'desc')
    .execute();
  return rows.map((row) => ({ day: row.voted_on, votes: row.n }));
}

/**
 * What a page of votes says of their e-mails: `left-out` never reads the column (only the owner,
 * recently signed in, may see e-mails: staff/admin-guard.ts), `included` gives each vote's, `only`
 * keeps just the votes that carry one.
 */
export type VoterEmails = 'left-out' | 'included' | 'only';

/**
 * Up to `limit` counted votes of a poll in the order they were cast, after vote `afterId` (0 for the
 * first page): one short indexed query per page, however many votes the poll has, so reading
 * a whole poll page by page never holds it in memory nor the database connection for long.
 */
export async function votesPage(
  db: Db,
  pollId: number,
  { afterId, limit, emails }: { afterId: number; limit: number; emails: VoterEmails },
): Promise<VoteRecord[]> {
  const rows = await db
    .selectFrom('votes')
    .select(['id', 'option_index', 'created_at'])
    .$if(emails !== 'left-out', (query) => query.select('voter_email'))
    .where('poll_id', '=', pollId)
    .where('id', '>', afterId)
    // Held and discounted votes are in no export (integrity/): staff review them in the integrity view.
    .where('status', '=', 'counted')
    .$if(emails === 'only', (query) => query.where('voter_email', 'is not', null))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    voterEmail: row.voter_email ?? null,
    optionIndex: row.option_index,
    createdAt: toIsoString(row.created_at),
  }));
}

/** How many of a poll's votes carry an e-mail, per option index. */
export async function emailCountsByOption(db: Db, pollId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('votes')
    .select((eb) => ['option_index', eb.fn.countAll<number>().as('n')])
    .where('poll_id', '=', pollId)
    .where('voter_email', 'is not', null)
    .where('status', '=', 'counted')
    .groupBy('option_index')
    .execute();
  return new Map(rows.map((row) => [row.option_index, row.n]));
}

/** Removes the e-mail from every vote of this voter; the votes stay, anonymous. Gives how many. */
export async function detachEmails(db: Db, voterId: string): Promise<number> {
  const result = await db
    .updateTable('votes')
    .set({ voter_email: null })
    .where('voter_id', '=', voterId)
    .where('voter_email', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
