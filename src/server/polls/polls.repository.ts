/** The only place SQL about polls and their options lives. */
import { sql } from 'kysely';
import { isPostgres, type Db } from '../db/connection.js';
import type { PollStatus } from '../db/tables.js';
import { indexPollText } from '../db/search-index.js';
import { pollFromRow, type NewPoll, type PollChanges, type PollOption, type PollRecord, type PollRow } from './poll.js';
import { ensureSeries } from './series.repository.js';

/** The options (with counts) of each poll, in order. */
async function optionsOf(db: Db, pollIds: number[]): Promise<Map<number, PollOption[]>> {
  const byPoll = new Map<number, PollOption[]>(pollIds.map((id) => [id, []]));
  if (pollIds.length === 0) return byPoll;
  const rows = await db
    .selectFrom('poll_options')
    .select(['poll_id', 'label', 'vote_count'])
    .where('poll_id', 'in', pollIds)
    .orderBy('poll_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byPoll.get(row.poll_id)?.push({ label: row.label, votes: row.vote_count });
  return byPoll;
}

async function withOptions(db: Db, rows: PollRow[]): Promise<PollRecord[]> {
  const options = await optionsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => pollFromRow(row, options.get(row.id) ?? []));
}

export async function findActivePoll(db: Db): Promise<PollRecord | undefined> {
  const row = await db.selectFrom('polls').selectAll().where('status', '=', 'active').executeTakeFirst();
  return row && (await withOptions(db, [row]))[0];
}

/** The id of today's poll, read inside the caller's transaction (not from any copy in memory). */
export async function findActivePollId(db: Db): Promise<number | undefined> {
  const row = await db.selectFrom('polls').select('id').where('status', '=', 'active').executeTakeFirst();
  return row?.id;
}

export async function findPollById(db: Db, id: number): Promise<PollRecord | undefined> {
  const row = await db.selectFrom('polls').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await withOptions(db, [row]))[0];
}

export async function findPollByNumber(db: Db, pollNumber: number): Promise<PollRecord | undefined> {
  const row = await db.selectFrom('polls').selectAll().where('poll_number', '=', pollNumber).executeTakeFirst();
  return row && (await withOptions(db, [row]))[0];
}

/** Every poll, for staff: newest date first. */
export async function listAllPolls(db: Db): Promise<PollRecord[]> {
  const rows = await db
    .selectFrom('polls')
    .selectAll()
    .orderBy('live_date', 'desc')
    .orderBy('poll_number', 'desc')
    .execute();
  return withOptions(db, rows);
}

/** Past polls, newest first by the day they went live. */
export async function listPastPolls(db: Db): Promise<PollRecord[]> {
  const rows = await db
    .selectFrom('polls')
    .selectAll()
    .where('status', '=', 'past')
    .orderBy('live_date', 'desc')
    .orderBy('went_live_at', 'desc')
    .orderBy('poll_number', 'desc')
    .execute();
  return withOptions(db, rows);
}

export async function findPollStatus(db: Db, id: number): Promise<PollStatus | undefined> {
  const row = await db.selectFrom('polls').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

/** Polls that have gone live: the past ones and today's. */
export async function countLivePolls(db: Db): Promise<number> {
  const row = await db
    .selectFrom('polls')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ['active', 'past'])
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Moves on every change to what past polls show (pastPollsVersion). */
const PAST_POLLS_CHANGES = 'past_polls_changes';

/**
 * The one place that says what past polls show has changed: a poll going past or live again,
 * one edited or deleted, and any later change to their counted votes (a discount by staff).
 * Run it in the change's transaction. What is built from past polls (the open data) is built
 * again on every instance once it sees the change (open-data/open-data.service.ts).
 */
export async function markPastPollsChanged(db: Db): Promise<void> {
  await db
    .insertInto('counters')
    .values({ name: PAST_POLLS_CHANGES, value: 1 })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: sql`counters.value + 1` }))
    .execute();
}

/**
 * A stamp of what past polls show, cheap to read: the changes marked, and the votes counted and
 * set aside on past polls (a vote accepted just before its poll went past may be written just
 * after, on any instance, counted or held: the stamp moves with it). Equal stamps, equal past polls.
 */
export async function pastPollsVersion(db: Db): Promise<string> {
  const { rows } = await sql<{
    changes: number | string | null;
    votes: number | string | null;
    set_aside: number | string | null;
  }>`
    select (select value from counters where name = ${PAST_POLLS_CHANGES}) as changes,
      (select sum(o.vote_count) from poll_options o join polls p on p.id = o.poll_id where p.status = 'past') as votes,
      (select sum(set_aside_votes) from polls where status = 'past') as set_aside
  `.execute(db);
  const row = rows[0];
  return `${row?.changes ?? 0}:${row?.votes ?? 0}:${row?.set_aside ?? 0}`;
}

/** The next poll number; numbers only go up, so a deleted poll's number is never reused. */
async function nextPollNumber(db: Db): Promise<number> {
  const row = await db
    .updateTable('counters')
    .set({ value: sql`value + 1` })
    .where('name', '=', 'poll_number')
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}

/** Inserts a poll and its options. Run it in a transaction. */
export async function insertPoll(db: Db, poll: NewPoll, now: Date): Promise<PollRecord> {
  const pollNumber = await nextPollNumber(db);
  const timestamp = now.toISOString();
  const row = await db
    .insertInto('polls')
    .values({
      poll_number: pollNumber,
      question: poll.question,
      description: poll.description,
      live_date: poll.liveDate,
      status: poll.status,
      went_live_at: poll.status === 'scheduled' ? null : (poll.wentLiveAt ?? timestamp),
      created_at: timestamp,
      updated_at: timestamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('poll_options')
    .values(poll.options.map((label, position) => ({ poll_id: row.id, position, label })))
    .execute();
  await indexPollText(db, row.id, { question: poll.question, description: poll.description });
  // Only the demo's and the tests' polls start out past.
  if (poll.status === 'past') await markPastPollsChanged(db);
  return pollFromRow(
    row,
    poll.options.map((label) => ({ label, votes: 0 })),
  );
}

/** Updates a poll's text and date, and replaces its options when given. Run it in a transaction. */
export async function updatePoll(db: Db, id: number, changes: PollChanges, now: Date): Promise<void> {
  await db
    .updateTable('polls')
    .set({
      question: changes.question,
      description: changes.description,
      live_date: changes.liveDate,
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .execute();
  await indexPollText(db, id, { question: changes.question, description: changes.description });
  await markPastPollsChanged(db);
  if (changes.options) {
    await db.deleteFrom('poll_options').where('poll_id', '=', id).execute();
    await db
      .insertInto('poll_options')
      .values(changes.options.map((label, position) => ({ poll_id: id, position, label })))
      .execute();
  }
}

/** Polls that have gone live (past ones, and today's), oldest first. */
const liveRuns = (db: Db) =>
  db
    .selectFrom('polls')
    .selectAll()
    .where('status', 'in', ['past', 'active'])
    .orderBy('live_date')
    .orderBy('went_live_at')
    .orderBy('poll_number');

/**
 * The runs of a series that have gone live (past ones, and today's), oldest first. The caller
 * decides whether today's may be shown yet.
 */
export async function findSeriesRuns(db: Db, seriesId: number): Promise<PollRecord[]> {
  return withOptions(db, await liveRuns(db).where('series_id', '=', seriesId).execute());
}

/**
 * The runs of every named series (poll_series) that have gone live, oldest first: what
 * /trackers reads. O(runs × options), whatever the votes.
 */
export async function findNamedSeriesRuns(db: Db, seriesId?: number): Promise<PollRecord[]> {
  const rows = await liveRuns(db)
    .where('series_id', 'in', db.selectFrom('poll_series').select('id'))
    .$if(seriesId !== undefined, (query) => query.where('series_id', '=', seriesId ?? 0))
    .execute();
  return withOptions(db, rows);
}

/** Poll numbers by id, for the polls named (staff see "asked before" as a number). */
export async function pollNumbersOf(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('polls').select(['id', 'poll_number']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.poll_number]));
}

/**
 * Links a poll to the earlier run it asks again, joining that run's series (and making the
 * run the first of one, if it was asked once until now); `run` null unlinks it. A poll that
 * others have joined stays the first of its series. Run it in a transaction.
 */
export async function linkToEarlierRun(
  db: Db,
  poll: Pick<PollRecord, 'id' | 'seriesId'>,
  run: Pick<PollRecord, 'id' | 'seriesId'> | null,
  now = new Date(),
): Promise<void> {
  if (run && run.seriesId === null) {
    await db.updateTable('polls').set({ series_id: run.id }).where('id', '=', run.id).execute();
  }
  const seriesId = run ? (run.seriesId ?? run.id) : poll.seriesId === poll.id ? poll.id : null;
  await db
    .updateTable('polls')
    .set({ series_id: seriesId, asked_before_id: run?.id ?? null })
    .where('id', '=', poll.id)
    .execute();
  if (seriesId !== null) await ensureSeries(db, seriesId, now);
}

/** Deletes a poll; its options, tallies and votes go with it (foreign keys cascade). */
/** Deletes a poll and its votes; with `onlyWithoutVotes`, only a poll nobody has voted on (held votes too). */
export async function deletePoll(db: Db, id: number, { onlyWithoutVotes = false } = {}): Promise<boolean> {
  const result = await db
    .deleteFrom('polls')
    .where('id', '=', id)
    .$if(onlyWithoutVotes, (query) =>
      query.where((eb) =>
        eb.not(eb.exists(eb.selectFrom('votes').select('votes.id').whereRef('votes.poll_id', '=', 'polls.id'))),
      ),
    )
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) return false;
  await markPastPollsChanged(db);
  return true;
}

/** Any number: only the site's own transactions take this PostgreSQL advisory lock. */
const SCHEDULE_LOCK = 4_927_310_006;

/**
 * Makes every change to which poll is live or scheduled (the daily switch, Make Active,
 * creating, editing, deleting) wait for any other one under way, on any instance, until its
 * transaction ends; each then sees the state the last one left. Run it first in a transaction.
 * SQLite's transactions here begin with the write lock, so they are one at a time already.
 */
export async function lockSchedule(db: Db): Promise<void> {
  if (isPostgres(db)) await sql`select pg_advisory_xact_lock(${SCHEDULE_LOCK})`.execute(db);
}

/** The poll scheduled for `day`, if any (one per day at most). */
export async function findScheduledFor(db: Db, day: string): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('polls')
    .select('id')
    .where('status', '=', 'scheduled')
    .where('live_date', '=', day)
    .executeTakeFirst();
}

/** Makes the current active poll a past one, and gives its id (null if there was none). Run it in a transaction. */
async function retireActivePoll(db: Db, now: Date): Promise<number | null> {
  const row = await db
    .updateTable('polls')
    .set({ status: 'past', updated_at: now.toISOString() })
    .where('status', '=', 'active')
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Makes a poll the active one, live from `now`, retiring the current one first; gives the id of
 * the one retired (null if there was none). A poll that has never been live takes `today` as its
 * date; one that has keeps its own, so running a past poll again does not move it in the archive
 * or lose the day it first ran. Run it in a transaction.
 */
export async function makeActive(db: Db, id: number, now: Date, today: string): Promise<number | null> {
  const previousPollId = await retireActivePoll(db, now);
  await db
    .updateTable('polls')
    .set({
      status: 'active',
      live_date: sql`case when status = 'scheduled' then ${today} else live_date end`,
      went_live_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .execute();
  // The retired poll goes past; a past poll run again leaves the past ones.
  await markPastPollsChanged(db);
  return previousPollId;
}
