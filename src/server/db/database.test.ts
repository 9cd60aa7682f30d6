import { describe, expect, it } from 'vitest';
import { openDatabaseEachTest } from '../testing/database-per-test.js';
import { insertVoteRow, seedPoll, seedPollBefore0010 } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestAppOn } from '../testing/test-app.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { openDatabase, sqliteHandleOf, type Db } from './connection.js';
import { Migrator, sql } from 'kysely';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';

describe.each(testDatabaseKinds())('the schema (%s)', (kind) => {
  let db: Db;

  openDatabaseEachTest(kind, (opened) => {
    db = opened;
  });

  const vote = (pollId: number, voterId: string, voterEmail: string | null = null, optionIndex = 0) =>
    insertVoteRow(db, { pollId, voterId, voterEmail, optionIndex });

  it('migrates once; running the migrations again changes nothing', async () => {
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it('allows one vote per voter per poll', async () => {
    const poll = await seedPoll(db);
    await vote(poll.id, 'voter-a');
    await expect(vote(poll.id, 'voter-a', null, 1)).rejects.toThrow();
    const other = await seedPoll(db, { status: 'past', liveDate: '2026-11-20' });
    await vote(other.id, 'voter-a'); // the same voter on another poll is fine
  });

  it('allows an e-mail on one vote per poll, and any number of votes without one', async () => {
    const poll = await seedPoll(db);
    await vote(poll.id, 'voter-a', 'sam@example.org');
    await expect(vote(poll.id, 'voter-b', 'sam@example.org')).rejects.toThrow();
    await vote(poll.id, 'voter-c');
    await vote(poll.id, 'voter-d');
  });

  it('refuses a vote for an option the poll does not have', async () => {
    const poll = await seedPoll(db, { options: ['A', 'B'] });
    await expect(vote(poll.id, 'voter-a', null, 2)).rejects.toThrow();
  });

  it('keeps every tally equal to the number of votes, through inserts, updates and deletes', async () => {
    const poll = await seedPoll(db, { options: ['A', 'B', 'C'], votes: [2, 1, 0] });
    await vote(poll.id, 'voter-x', null, 2);
    await db.updateTable('votes').set({ option_index: 0 }).where('voter_id', '=', 'voter-x').execute();
    await db.deleteFrom('votes').where('poll_id', '=', poll.id).where('option_index', '=', 1).execute();
    await vote(poll.id, 'voter-y', null, 1);
    await expect(vote(poll.id, 'voter-y', null, 2)).rejects.toThrow(); // a refused vote counts nothing

    const tallies = await db
      .selectFrom('poll_options')
      .select('vote_count')
      .where('poll_id', '=', poll.id)
      .orderBy('position')
      .execute();
    const counted = await db
      .selectFrom('votes')
      .select(['option_index', (eb) => eb.fn.countAll<number>().as('n')])
      .where('poll_id', '=', poll.id)
      .groupBy('option_index')
      .execute();
    const actual = [0, 1, 2].map((i) => counted.find((c) => c.option_index === i)?.n ?? 0);
    expect(actual).toEqual([3, 1, 0]);
    expect(tallies.map((t) => t.vote_count)).toEqual(actual);
  });

  it('allows one active poll at a time', async () => {
    await seedPoll(db, { status: 'active' });
    await expect(seedPoll(db, { status: 'active' })).rejects.toThrow();
    await seedPoll(db, { status: 'past', liveDate: '2026-11-20' });
    await seedPoll(db, { status: 'past', liveDate: '2026-11-19' });
  });

  it('never hands out a poll number twice, even after a delete', async () => {
    const first = await seedPoll(db, { status: 'past', liveDate: '2026-11-19' });
    const second = await seedPoll(db, { status: 'past', liveDate: '2026-11-20' });
    await db.deleteFrom('polls').where('id', '=', second.id).execute();
    const third = await seedPoll(db);
    expect([first.pollNumber, second.pollNumber, third.pollNumber]).toEqual([1, 2, 3]);
    await expect(
      db
        .insertInto('polls')
        .values({
          poll_number: 1,
          question: 'Duplicate number?',
          description: null,
          live_date: '2026-11-30',
          status: 'scheduled',
          went_live_at: null,
          created_at: '2026-11-21T15:00:00.000Z',
          updated_at: '2026-11-21T15:00:00.000Z',
        })
        .execute(),
    ).rejects.toThrow();
  });

  it('deletes the options and votes of a deleted poll with it', async () => {
    const poll = await seedPoll(db, { votes: [2, 1, 0] });
    const kept = await seedPoll(db, { status: 'past', liveDate: '2026-11-20', votes: [1, 1] });
    await db.deleteFrom('polls').where('id', '=', poll.id).execute();
    const votes = await db.selectFrom('votes').select('poll_id').execute();
    const options = await db.selectFrom('poll_options').select('poll_id').execute();
    expect(new Set(votes.map((v) => v.poll_id))).toEqual(new Set([kept.id]));
    expect(new Set(options.map((o) => o.poll_id))).toEqual(new Set([kept.id]));
  });

  it('keeps subscriber addresses unique', async () => {
    const add = () =>
      db
        .insertInto('subscribers')
        .values({ email: 'a@example.org', source_poll_id: null, created_at: '2026-11-21T15:00:00Z' })
        .execute();
    await add();
    await expect(add()).rejects.toThrow();
  });

  it('stores times as instants and dates as calendar days', async () => {
    const poll = await seedPoll(db, { liveDate: '2026-03-08' }, new Date('2026-03-08T06:30:00.000Z'));
    const row = await db
      .selectFrom('polls')
      .select(['live_date', 'created_at'])
      .where('id', '=', poll.id)
      .executeTakeFirstOrThrow();
    expect(row.live_date).toBe('2026-03-08');
    expect(new Date(row.created_at).toISOString()).toBe('2026-03-08T06:30:00.000Z');
  });
});

// SQLite only: the query plan and the index list are SQLite's own.
if (testDatabaseKinds().includes('sqlite')) {
  describe('the votes table on SQLite', () => {
    let db: Db;
    openDatabaseEachTest('sqlite', (opened) => {
      db = opened;
    });

    it("finds a voter's votes through the one-vote-per-voter key, with no index of their own", () => {
      const sqlite = sqliteHandleOf(db);
      if (!sqlite) throw new Error('not opened by openDatabase');
      const plan = (query: string) =>
        (sqlite.prepare(`explain query plan ${query}`).all('voter-a') as { detail: string }[])
          .map((row) => row.detail)
          .join('; ');
      const byVoter = /SEARCH votes USING (COVERING )?INDEX sqlite_autoindex_votes_\d \(voter_id=\?\)/;
      expect(plan('select voted_on, count(*) from votes where voter_id = ? group by voted_on')).toMatch(byVoter);
      expect(plan('update votes set voter_email = null where voter_id = ?')).toMatch(byVoter);
      // Every counted vote writes each index: the two rules' keys, a poll's votes in order and a
      // poll's votes by address bucket (integrity/), nothing more. Two are partial: the e-mail
      // key holds only votes with an e-mail (migration 0027), and only votes held or set aside
      // are in votes_set_aside (staff actions find them through it, issue 37 item 10).
      const indexes = sqlite
        .prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'votes' order by name")
        .all() as { name: string; sql: string | null }[];
      expect(indexes).toHaveLength(5);
      const partial = indexes.filter((index) => index.sql?.includes('where') === true);
      expect(partial.map((index) => index.name)).toEqual(['votes_one_per_email', 'votes_set_aside']);
      expect(partial[0]?.sql).toContain('where voter_email is not null');
      expect(partial[1]?.sql).toContain("where status <> 'counted'");
    });

    it('finds the votes a restore or a release counts through the partial index, not by reading the poll', async () => {
      const sqlite = sqliteHandleOf(db);
      if (!sqlite) throw new Error('not opened by openDatabase');
      const { releaseVotesQuery, restoreVotesQuery } = await import('../review/review.repository.js');
      const planOf = ({ sql, parameters }: { sql: string; parameters: readonly unknown[] }) =>
        (sqlite.prepare(`explain query plan ${sql}`).all(...parameters) as { detail: string }[])
          .map((row) => row.detail)
          .join('; ');
      for (const compiled of [
        restoreVotesQuery(db, 1, 7).compile(),
        releaseVotesQuery(db, 1, { bucket: undefined }).compile(),
        releaseVotesQuery(db, 1, { bucket: '0123456789abcdef', pageAtLeastMs: 1_500 }).compile(),
      ]) {
        expect(planOf(compiled)).toMatch(/USING (COVERING )?INDEX votes_set_aside/);
      }
    });
  });
}

describe.each(testDatabaseKinds())('upgrading to double opt-in (%s)', (kind) => {
  it('keeps existing subscribers as confirmed, cancels unsent welcomes, and keeps every outbox row', async () => {
    const database = await createTestDatabase(kind);
    const db = openDatabase(database.target);
    try {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        ...(kind === 'postgres' ? { migrationTableSchema: await currentSchemaOf(db) } : {}),
      });
      expect((await migrator.migrateTo('0003-mail')).error).toBeUndefined();
      const at = '2026-11-01T12:00:00.000Z';
      await sql`insert into subscribers (email, created_at, consented_at, unsubscribe_token) values ('old@example.org', ${at}, ${at}, 'token-of-an-old-subscriber')`.execute(
        db,
      );
      await sql`insert into email_outbox (kind, subscriber_id, dedupe_key, status, next_attempt_at, created_at)
        values ('welcome', 1, 'welcome:1:sent', 'sent', ${at}, ${at}), ('welcome', 1, 'welcome:1:queued', 'queued', ${at}, ${at})`.execute(
        db,
      );

      expect(await migrateToLatest(db)).toEqual([
        '0004-opt-in',
        '0006-profiles',
        '0007-vote-batches',
        '0008-voter-key',
        '0009-email-links',
        '0010-vote-integrity',
        '0011-reissued-voter-ids',
        '0012-proof-of-work',
        '0013-weighted-results',
        '0014-staff',
        '0015-push-reminders',
        '0016-staff-hardening',
        '0017-daily-address-key',
        '0019-published-breakdowns',
        '0020-series',
        '0022-topics',
        '0023-search',
        '0024-poll-notes',
        '0025-weekly-digest',
        '0026-integrity-alerts',
        '0027-cheaper-vote-row',
        '0028-set-aside-index',
      ]);
      const subscriber = await db.selectFrom('subscribers').select(['confirmed_at']).executeTakeFirstOrThrow();
      expect(new Date(subscriber.confirmed_at ?? 0).toISOString()).toBe(at);
      const outbox = await db.selectFrom('email_outbox').select(['dedupe_key', 'status']).orderBy('id').execute();
      expect(outbox).toEqual([
        { dedupe_key: 'welcome:1:sent', status: 'sent' },
        { dedupe_key: 'welcome:1:queued', status: 'cancelled' },
      ]);
      // The widened check takes the new kind and still refuses an unknown one.
      const row = (kind_: string, key: string) =>
        db
          .insertInto('email_outbox')
          .values({
            kind: kind_ as 'confirm',
            subscriber_id: 1,
            dedupe_key: key,
            status: 'queued',
            next_attempt_at: at,
            created_at: at,
          })
          .execute();
      await row('confirm', 'confirm:1');
      await expect(row('spam', 'spam:1')).rejects.toThrow();
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});

describe.each(testDatabaseKinds())('re-keying votes by voter first (%s)', (kind) => {
  /** Everything the votes hold and count, to compare before and after. */
  const snapshot = async (db: Db) => ({
    votes: await db.selectFrom('votes').selectAll().orderBy('id').execute(),
    tallies: await db
      .selectFrom('poll_options')
      .select(['poll_id', 'position', 'vote_count'])
      .orderBy('poll_id')
      .orderBy('position')
      .execute(),
    groups: await db
      .selectFrom('poll_group_tallies')
      .selectAll()
      .orderBy('dimension')
      .orderBy('group_value')
      .orderBy('option_index')
      .execute(),
  });

  it('keeps every vote, its id and every tally, and every rule and trigger still holds', async () => {
    const database = await createTestDatabase(kind);
    const db = openDatabase(database.target);
    try {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        ...(kind === 'postgres' ? { migrationTableSchema: await currentSchemaOf(db) } : {}),
      });
      const migrateUpTo = async (name: string) => {
        const { error, results = [] } = await migrator.migrateTo(name);
        expect(error).toBeUndefined();
        return results.map((result) => result.migrationName);
      };
      expect((await migrator.migrateTo('0007-vote-batches')).error).toBeUndefined();
      const poll = await seedPollBefore0010(db, { votes: [3, 2, 1] });
      const past = await seedPollBefore0010(db, { status: 'past', liveDate: '2026-11-20', votes: [1, 1] });
      await insertVoteRow(db, { pollId: poll.id, voterId: 'teacher-with-email', voterEmail: 'sam@example.org' });
      // Two classroom teachers' votes, written with the columns votes had then.
      for (const voterId of ['teacher-a', 'teacher-b']) {
        await db
          .insertInto('profile_answers')
          .values({
            voter_id: voterId,
            dimension: 'role',
            group_value: 'classroom-teacher',
            updated_at: '2026-11-21T14:00:00.000Z',
          })
          .execute();
        await insertVoteRow(db, { pollId: poll.id, voterId, optionIndex: 1 });
      }
      // The newest vote goes: its id must not be handed out again.
      await insertVoteRow(db, { pollId: past.id, voterId: 'changed-their-mind', optionIndex: 2 });
      const newest = await db.selectFrom('votes').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
      await db.deleteFrom('votes').where('id', '=', newest.id).execute();
      const before = await snapshot(db);

      // Up to the release that re-keyed the votes: later ones add columns of their own.
      expect(await migrateUpTo('0009-email-links')).toEqual(['0008-voter-key', '0009-email-links']);
      expect(await snapshot(db)).toEqual(before);

      // One vote per voter per poll, one e-mail per poll, and the tallies follow.
      await expect(
        insertVoteRow(db, { pollId: poll.id, voterId: 'teacher-with-email', optionIndex: 1 }),
      ).rejects.toThrow();
      await expect(insertVoteRow(db, { pollId: poll.id, voterEmail: 'sam@example.org' })).rejects.toThrow();
      await insertVoteRow(db, { pollId: past.id, voterId: 'teacher-with-email', optionIndex: 1 });
      await db
        .insertInto('profile_answers')
        .values({
          voter_id: 'teacher-c',
          dimension: 'role',
          group_value: 'classroom-teacher',
          updated_at: '2026-11-21T14:00:00.000Z',
        })
        .execute();
      await insertVoteRow(db, { pollId: poll.id, voterId: 'teacher-c', optionIndex: 2 });
      const after = await snapshot(db);
      const added = after.votes.slice(before.votes.length);
      expect(added.map((vote) => vote.poll_id)).toEqual([past.id, poll.id]);
      expect(Math.min(...added.map((vote) => vote.id))).toBeGreaterThan(newest.id);
      const tally = (rows: typeof before.tallies, pollId: number) =>
        rows.filter((row) => row.poll_id === pollId).map((row) => row.vote_count);
      expect(tally(after.tallies, past.id)).toEqual([1, 2, 0]);
      expect(tally(after.tallies, poll.id)).toEqual([4, 4, 2]);
      const teachers = after.groups
        .filter((row) => row.group_value === 'classroom-teacher')
        .map((row) => [row.option_index, row.vote_count]);
      expect(teachers).toEqual([
        [1, 2],
        [2, 1],
      ]);

      // A deleted vote still leaves its tally.
      await db
        .deleteFrom('votes')
        .where('voter_id', '=', 'teacher-with-email')
        .where('poll_id', '=', past.id)
        .execute();
      expect(tally((await snapshot(db)).tallies, past.id)).toEqual([1, 1, 0]);

      // And back: the old key and votes_voter_day return, with every vote.
      const beforeDown = await snapshot(db);
      expect((await migrator.migrateTo('0007-vote-batches')).error).toBeUndefined();
      expect(await snapshot(db)).toEqual(beforeDown);
      expect(await migrateUpTo('0009-email-links')).toEqual(['0008-voter-key', '0009-email-links']);
      expect(await snapshot(db)).toEqual(beforeDown);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});

describe.each(testDatabaseKinds())('upgrading to hashed e-mail links (%s)', (kind) => {
  it('keeps only the hashes of the tokens in e-mails already sent, and every such link still works', async () => {
    const database = await createTestDatabase(kind);
    const db = openDatabase(database.target);
    const old = {
      confirmedUnsubscribe: 'unsubscribe-token-of-a-confirmed-one',
      pendingConfirm: 'confirm-token-of-a-pending-one',
      pendingUnsubscribe: 'unsubscribe-token-of-a-pending-one',
    };
    try {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        ...(kind === 'postgres' ? { migrationTableSchema: await currentSchemaOf(db) } : {}),
      });
      expect((await migrator.migrateTo('0008-voter-key')).error).toBeUndefined();
      const at = '2026-11-20T12:00:00.000Z';
      await sql`insert into subscribers (email, created_at, consented_at, confirmed_at, unsubscribe_token, confirm_token)
        values ('member@example.org', ${at}, ${at}, ${at}, ${old.confirmedUnsubscribe}, null),
          ('pending@example.org', ${at}, ${at}, null, ${old.pendingUnsubscribe}, ${old.pendingConfirm})`.execute(db);
    } finally {
      await db.destroy();
    }

    const t = await createTestAppOn(database); // migrates, as a new release starting would
    try {
      const stored = JSON.stringify(await snapshotDatabase(t.db));
      for (const token of Object.values(old)) expect(stored).not.toContain(token);

      const asking = await new Visitor(t.app).get(`/subscribe/confirm?token=${old.pendingConfirm}`);
      expect(asking.body).toContain('p***@example.org');
      const confirmed = await new Visitor(t.app).post(`/subscribe/confirm?token=${old.pendingConfirm}`);
      expect(confirmed.body).toContain('You&#39;re subscribed!');
      const left = await new Visitor(t.app).post(`/unsubscribe?token=${old.confirmedUnsubscribe}`);
      expect(left.body).toContain('You&#39;re unsubscribed');
      const subscribers = await t.db
        .selectFrom('subscribers')
        .select(['email', 'confirmed_at', 'unsubscribed_at'])
        .orderBy('email')
        .execute();
      expect(subscribers.map((row) => [row.email, row.confirmed_at !== null, row.unsubscribed_at !== null])).toEqual([
        ['member@example.org', true, true],
        ['pending@example.org', true, false],
      ]);
      expect((await new Visitor(t.app).get(`/unsubscribe?token=${old.pendingUnsubscribe}`)).statusCode).toBe(200);
      expect((await new Visitor(t.app).get(`/unsubscribe?token=${'x'.repeat(30)}`)).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

// PostgreSQL only: SQLite has no schemas.
if (testDatabaseKinds().includes('postgres')) {
  describe('migrations on a PostgreSQL server shared with other schemas', () => {
    it('migrates a schema even when another schema already has migration tables', async () => {
      const migrated = await createTestDatabase('postgres');
      const migratedDb = openDatabase(migrated.target);
      const other = await createTestDatabase('postgres');
      const otherDb = openDatabase(other.target);
      try {
        await migrateToLatest(migratedDb);
        expect(await migrateToLatest(otherDb)).toEqual(Object.keys(migrations));
        expect(await migrateToLatest(otherDb)).toEqual([]);
      } finally {
        await Promise.all([migratedDb.destroy(), otherDb.destroy()]);
        await Promise.all([migrated.drop(), other.drop()]);
      }
    });
  });
}

async function currentSchemaOf(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}
