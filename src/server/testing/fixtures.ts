/** Polls and votes put straight into the database, so a test can start from any state. */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import type { PollStatus } from '../db/tables.js';
import type { Profile } from '../../shared/profile.js';
import type { PollRecord } from '../polls/poll.js';
import { insertPoll } from '../polls/polls.repository.js';
import { insertVotes, type NewVote } from '../votes/votes.repository.js';

export interface PollFixture {
  question?: string;
  description?: string | null;
  options?: string[];
  liveDate?: string;
  status?: PollStatus;
  /** Votes per option, cast by random voters on the live date. */
  votes?: number[];
}

export const newVoterId = () => randomBytes(16).toString('base64url');

export async function seedPoll(db: Db, fixture: PollFixture = {}, now = new Date()): Promise<PollRecord> {
  const options = fixture.options ?? ['Yes', 'No', 'Not sure'];
  const liveDate = fixture.liveDate ?? '2026-11-21';
  return db.transaction().execute(async (trx) => {
    const poll = await insertPoll(
      trx,
      {
        question: fixture.question ?? 'Should homework be banned in elementary school?',
        description: fixture.description ?? null,
        options,
        liveDate,
        status: fixture.status ?? 'active',
      },
      now,
    );
    const counts = fixture.votes ?? [];
    const votes: NewVote[] = counts.flatMap((count, optionIndex) =>
      Array.from({ length: count }, () => ({
        pollId: poll.id,
        voterId: newVoterId(),
        optionIndex,
        voterEmail: null,
        votedOn: liveDate,
        createdAt: now.toISOString(),
      })),
    );
    await insertVotes(trx, votes);
    return { ...poll, options: poll.options.map((o, i) => ({ ...o, votes: counts[i] ?? 0 })) };
  });
}

/** One vote row written with plain SQL, bypassing the code under test. */
export async function insertVoteRow(
  db: Db,
  vote: {
    pollId: number;
    voterId?: string;
    optionIndex?: number;
    voterEmail?: string | null;
    votedOn?: string;
    createdAt?: string;
  },
): Promise<void> {
  await db
    .insertInto('votes')
    .values({
      poll_id: vote.pollId,
      voter_id: vote.voterId ?? newVoterId(),
      option_index: vote.optionIndex ?? 0,
      voter_email: vote.voterEmail ?? null,
      voted_on: vote.votedOn ?? '2026-11-21',
      created_at: vote.createdAt ?? '2026-11-21T15:00:00.000Z',
    })
    .execute();
}

/**
 * Votes by new voters who described themselves first, as browsers that answered the profile
 * would: each group's answers are stored, then its votes per option are cast (the database
 * counts them in the groups).
 */
export async function seedProfiledVotes(
  db: Db,
  poll: Pick<PollRecord, 'id' | 'liveDate'>,
  groups: { profile: Partial<Profile>; votes: number[] }[],
  now = new Date(),
): Promise<void> {
  for (const { profile, votes } of groups) {
    const voters = votes.flatMap((count, optionIndex) =>
      Array.from({ length: count }, () => ({ voterId: newVoterId(), optionIndex })),
    );
    const answers = voters.flatMap(({ voterId }) =>
      Object.entries(profile).flatMap(([dimension, value]) =>
        value ? [{ voter_id: voterId, dimension, group_value: value, updated_at: now.toISOString() }] : [],
      ),
    );
    if (answers.length > 0) await db.insertInto('profile_answers').values(answers).execute();
    await insertVotes(
      db,
      voters.map(({ voterId, optionIndex }) => ({
        pollId: poll.id,
        voterId,
        optionIndex,
        voterEmail: null,
        votedOn: poll.liveDate,
        createdAt: now.toISOString(),
      })),
    );
  }
}

/**
 * `count` votes on `poll` that are in no tally: held (as a challenged network's votes without a
 * proof of work are) or discounted by staff. The database counts them in polls.set_aside_votes.
 */
export async function insertSetAsideVotes(
  db: Db,
  poll: Pick<PollRecord, 'id' | 'liveDate'>,
  count: number,
  status: 'held' | 'discounted' = 'held',
): Promise<void> {
  await db
    .insertInto('votes')
    .values(
      Array.from({ length: count }, () => ({
        poll_id: poll.id,
        voter_id: newVoterId(),
        option_index: 0,
        voter_email: null,
        voted_on: poll.liveDate,
        created_at: `${poll.liveDate}T15:00:00.000Z`,
        status,
      })),
    )
    .execute();
}

/**
 * A poll with votes, written with plain SQL as a release before 0010 would have (and good on any
 * older schema, such as one before the search index): the code of
 * today reads columns that schema does not have yet.
 */
export async function seedPollBefore0010(
  db: Db,
  { status = 'active', liveDate = '2026-11-21', votes }: { status?: string; liveDate?: string; votes: number[] },
): Promise<{ id: number; liveDate: string }> {
  const at = `${liveDate}T12:00:00.000Z`;
  const { rows } = await sql<{ id: number }>`insert into polls
      (poll_number, question, description, live_date, status, went_live_at, created_at, updated_at)
    select coalesce(max(poll_number), 0) + 1, 'Should homework be banned?', null, ${liveDate}, ${status}, ${at}, ${at}, ${at}
    from polls returning id`.execute(db);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no poll was written');
  for (const position of [0, 1, 2]) {
    await sql`insert into poll_options (poll_id, position, label) values (${id}, ${position}, ${`Option ${position}`})`.execute(
      db,
    );
  }
  for (const [optionIndex, count] of votes.entries()) {
    for (let i = 0; i < count; i += 1) await insertVoteRow(db, { pollId: id, optionIndex, votedOn: liveDate });
  }
  return { id, liveDate };
}
