import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertVoteRow, seedPoll } from '../testing/fixtures.js';
import { insertReviewVotes, keptTallies, talliesFromVotes } from '../testing/review-fixtures.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { attachEmailToVote, insertVoteBatch, type NewVote } from '../votes/votes.repository.js';
import { openDatabase, type Db } from './connection.js';
import { migrations } from './migrations/index.js';

/** Everything the votes hold and count, to compare before and after 0027. */
const snapshot = async (db: Db, pollIds: number[]) => ({
  votes: await db.selectFrom('votes').selectAll().orderBy('id').execute(),
  tallies: await Promise.all(pollIds.map((id) => keptTallies(db, id))),
  profiles: await db
    .selectFrom('poll_profile_tallies')
    .selectAll()
    .orderBy('poll_id')
    .orderBy('voter_profile')
    .orderBy('option_index')
    .execute(),
});

const newVote = (pollId: number, voterId: string, voterEmail: string | null, optionIndex = 0): NewVote => ({
  pollId,
  voterId,
  optionIndex,
  voterEmail,
  votedOn: '2026-11-21',
  createdAt: '2026-11-21T16:00:00.000Z',
});

describe.each(testDatabaseKinds())('0027: the cheaper votes row (%s)', (kind) => {
  it('keeps every vote, its id, every tally and set-aside count, and both unique keys still decide', async () => {
    const database = await createTestDatabase(kind);
    const db = openDatabase(database.target);
    try {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        ...(kind === 'postgres' ? { migrationTableSchema: await currentSchemaOf(db) } : {}),
      });
      const migrateTo = async (name: string) => {
        const { error, results = [] } = await migrator.migrateTo(name);
        expect(error).toBeUndefined();
        return results.map((result) => `${result.migrationName} ${result.direction}`);
      };
      await migrateTo('0026-integrity-alerts');

      // A database holding votes: counted ones (some by voters with a profile), held and
      // discounted ones, votes with e-mails, on today's poll and a past one.
      const poll = await seedPoll(db, { votes: [3, 2, 1] });
      const past = await seedPoll(db, { status: 'past', liveDate: '2026-11-20', votes: [1, 1] });
      const at = '2026-11-21T15:00:00.000Z';
      await insertReviewVotes(db, [
        { pollId: poll.id, optionIndex: 1, createdAt: at, profile: { role: 'classroom-teacher' } },
        { pollId: poll.id, optionIndex: 2, createdAt: at, profile: { role: 'classroom-teacher', region: 'west' } },
        { pollId: poll.id, optionIndex: 0, createdAt: at, status: 'held', bucket: 'a1b2c3d4e5f60718' },
        { pollId: poll.id, optionIndex: 0, createdAt: at, status: 'held', bucket: 'a1b2c3d4e5f60718' },
        { pollId: past.id, optionIndex: 1, createdAt: at, status: 'discounted' },
      ]);
      await db.updateTable('votes').set({ discount_id: 7 }).where('status', '=', 'discounted').execute();
      await insertVoteRow(db, { pollId: poll.id, voterId: 'teacher-with-email', voterEmail: 'sam@example.org' });
      await insertVoteRow(db, { pollId: past.id, voterId: 'teacher-with-email', voterEmail: 'sam@example.org' });
      await insertVoteRow(db, { pollId: poll.id, voterId: 'the-newest', optionIndex: 2 });
      const before = await snapshot(db, [poll.id, past.id]);
      expect(before.tallies[0]).toEqual({
        options: [4, 3, 3],
        setAside: 2,
        groups: ['role/classroom-teacher/1: 1', 'role/classroom-teacher/2: 1', 'region/west/2: 1'].sort(),
      });
      expect(before.tallies[1]).toMatchObject({ options: [2, 1, 0], setAside: 1 });

      expect(await migrateTo('0027-cheaper-vote-row')).toEqual(['0027-cheaper-vote-row Up']);
      expect(await snapshot(db, [poll.id, past.id])).toEqual(before);
      expect(await talliesFromVotes(db, poll.id, 3)).toEqual(before.tallies[0]);
      expect(await talliesFromVotes(db, past.id, 3)).toEqual(before.tallies[1]);

      // One vote per voter per poll, one e-mail per poll: the unique keys decide, in each path.
      await expect(
        insertVoteRow(db, { pollId: poll.id, voterId: 'teacher-with-email', optionIndex: 1 }),
      ).rejects.toThrow();
      await expect(insertVoteRow(db, { pollId: poll.id, voterEmail: 'sam@example.org' })).rejects.toThrow();
      // A batch (the group commit) adds its tallies once, groups, profiles and set-aside too.
      await db
        .insertInto('profile_answers')
        .values([
          { voter_id: 'no-email-2', dimension: 'role', group_value: 'classroom-teacher', updated_at: at },
          { voter_id: 'no-email-2', dimension: 'region', group_value: 'west', updated_at: at },
        ])
        .execute();
      expect(
        await insertVoteBatch(db, [
          newVote(poll.id, 'the-newest', null, 1),
          newVote(poll.id, 'someone-new', 'sam@example.org', 1),
          newVote(poll.id, 'no-email-1', null, 1),
          newVote(poll.id, 'no-email-2', null, 2),
          newVote(poll.id, 'with-email', 'kim@example.org', 0),
          { ...newVote(poll.id, 'held-in-a-batch', null, 2), status: 'held' },
          newVote(poll.id + 1000, 'poll-gone', null, 0),
          newVote(past.id, 'on-the-past-poll', null, 1),
        ]),
      ).toEqual([
        { outcome: 'duplicate' },
        { outcome: 'duplicate' },
        { outcome: 'recorded' },
        { outcome: 'recorded' },
        { outcome: 'recorded' },
        { outcome: 'recorded' },
        { outcome: 'poll-gone' },
        { outcome: 'recorded' },
      ]);
      const afterBatch = await snapshot(db, [poll.id, past.id]);
      expect(afterBatch.tallies[0]).toEqual({
        options: [5, 4, 4],
        setAside: 3,
        groups: ['region/west/2: 2', 'role/classroom-teacher/1: 1', 'role/classroom-teacher/2: 2'],
      });
      expect(afterBatch.tallies[0]).toEqual(await talliesFromVotes(db, poll.id, 3));
      expect(afterBatch.tallies[1]).toEqual({ ...before.tallies[1], options: [2, 2, 0] });
      expect(afterBatch.tallies[1]).toEqual(await talliesFromVotes(db, past.id, 3));
      const { rows: profilesCounted } = await sql<{
        poll_id: number;
        voter_profile: string;
        option_index: number;
        n: number;
      }>`
        select poll_id, voter_profile, option_index, count(*) as n from votes
        where status = 'counted' and voter_profile is not null
        group by poll_id, voter_profile, option_index order by poll_id, voter_profile, option_index`.execute(db);
      expect(
        afterBatch.profiles.map((row) => [row.poll_id, row.voter_profile, row.option_index, row.vote_count]),
      ).toEqual(profilesCounted.map((row) => [row.poll_id, row.voter_profile, row.option_index, row.n]));
      // The batch's profiled voter joined the profile of a vote cast before 0027.
      expect(afterBatch.profiles.map((row) => row.vote_count)).toEqual([1, 2]);
      expect(await attachEmailToVote(db, poll.id, 'no-email-1', 'kim@example.org')).toBe('email-taken');
      expect(await attachEmailToVote(db, poll.id, 'no-email-1', 'lee@example.org')).toBe('attached');
      // The same e-mail on another poll is fine, as before.
      expect(await attachEmailToVote(db, past.id, 'teacher-with-email', 'sam@example.org')).toBe('attached');

      // New votes are counted by the triggers, held ones set aside, with ids after every kept one.
      await insertReviewVotes(db, [{ pollId: poll.id, optionIndex: 0, createdAt: at, status: 'held' }]);
      const after = await snapshot(db, [poll.id, past.id]);
      expect(after.tallies[0]).toMatchObject({ options: [5, 4, 4], setAside: 4 });
      expect(after.tallies[0]).toEqual(await talliesFromVotes(db, poll.id, 3));
      const added = after.votes.slice(before.votes.length);
      // (PostgreSQL writes a batch in voter order, SQLite in arrival order.)
      expect(
        added
          .map((vote) => vote.voter_id)
          .slice(0, 5)
          .sort(),
      ).toEqual(['held-in-a-batch', 'no-email-1', 'no-email-2', 'on-the-past-poll', 'with-email']);
      expect(Math.min(...added.map((vote) => vote.id))).toBeGreaterThan(Math.max(...before.votes.map((v) => v.id)));

      if (kind === 'sqlite') {
        const { rows: table } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'votes'`.execute(
          db,
        );
        expect(table[0]?.sql).not.toMatch(/autoincrement/i);
        const { rows: sequence } = await sql`select * from sqlite_sequence where name = 'votes'`.execute(db);
        expect(sequence).toEqual([]);
      }
      const { rows: emailKey } =
        kind === 'sqlite'
          ? await sql<{ sql: string }>`select sql from sqlite_master where name = 'votes_one_per_email'`.execute(db)
          : await sql<{
              sql: string;
            }>`select indexdef as sql from pg_indexes where indexname = 'votes_one_per_email'`.execute(db);
      expect(emailKey[0]?.sql).toMatch(/unique index.*where.*voter_email is not null/is);

      // And back: the constraint and AUTOINCREMENT return, every vote and tally kept, and the
      // newest id is not handed out again once its vote is deleted.
      const beforeDown = await snapshot(db, [poll.id, past.id]);
      expect(await migrateTo('0026-integrity-alerts')).toEqual(['0027-cheaper-vote-row Down']);
      expect(await snapshot(db, [poll.id, past.id])).toEqual(beforeDown);
      const newest = beforeDown.votes.at(-1)!;
      await db.deleteFrom('votes').where('id', '=', newest.id).execute();
      await insertVoteRow(db, { pollId: poll.id, voterId: 'after-down' });
      const again = await db
        .selectFrom('votes')
        .select('id')
        .where('voter_id', '=', 'after-down')
        .executeTakeFirstOrThrow();
      expect(again.id).toBeGreaterThan(newest.id);
      await expect(insertVoteRow(db, { pollId: poll.id, voterEmail: 'kim@example.org' })).rejects.toThrow();
      const beforeUp = await snapshot(db, [poll.id, past.id]);
      expect(await migrateTo('0027-cheaper-vote-row')).toEqual(['0027-cheaper-vote-row Up']);
      expect(await snapshot(db, [poll.id, past.id])).toEqual(beforeUp);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});

async function currentSchemaOf(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}
