import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';

/**
 * Vote integrity (src/server/integrity/): every vote keeps what review needs, and only counted
 * votes are in the figures.
 *
 * - votes.status: `counted`, `held` (cast without the proof of work its network was asked
 *   for: in no figure until staff release it) or `discounted` (set aside by staff after review).
 *   Nothing is deleted; a vote's status stays when its signals are emptied.
 * - votes.bucket: an 8-byte keyed hash (16 hex) of the client's IPv4 /24 or IPv6 /48 under the
 *   day's key (integrity_keys), never the address. Once the day's key is deleted (14 days) the
 *   bucket links to nothing.
 * - votes.page_ms, votes.cookie_age_s: how long after the page (or the API read of today's poll)
 *   was served the vote came, from its signed ballot (null: no valid ballot), and the voter
 *   cookie's age (null: issued with this vote). These signal columns and the bucket are emptied
 *   after 30 days.
 * - votes.discount_id: the staff action that discounted the vote, so restoring undoes exactly it.
 * - polls.set_aside_votes: held plus discounted votes, said in public beside the results;
 *   polls.challenge_everyone: staff asked every vote on the poll for a proof of work.
 * - integrity_keys: the day's bucket key, one per site day, made by whichever instance needs it
 *   first.
 * - integrity_buckets: a bucket's state on a poll (watch or challenge, and until when), written
 *   by whichever instance saw the votes, read by all.
 * - integrity_actions: the append-only log of staff review: who, when, what, how many votes, why.
 *
 * The tally triggers now count counted votes only, and a vote set aside on arrival (held) is
 * counted in polls.set_aside_votes instead. Status changes are staff actions: the service
 * recomputes the option tallies from the counted votes in the same transaction.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  const postgres = isPostgres(db);

  await db.schema
    .alterTable('votes')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('counted'))
    .execute();
  await db.schema.alterTable('votes').addColumn('bucket', 'text').execute();
  await db.schema.alterTable('votes').addColumn('page_ms', 'integer').execute();
  await db.schema.alterTable('votes').addColumn('cookie_age_s', 'integer').execute();
  await db.schema.alterTable('votes').addColumn('discount_id', 'integer').execute();
  // A bucket's votes on a poll in time order: the detector's windows and staff's review.
  await db.schema.createIndex('votes_poll_bucket').on('votes').columns(['poll_id', 'bucket', 'created_at']).execute();

  await db.schema
    .alterTable('polls')
    .addColumn('set_aside_votes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('polls')
    .addColumn('challenge_everyone', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('integrity_keys')
    .addColumn('day', t.date, (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('integrity_buckets')
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('first_flagged_at', t.timestamp, (c) => c.notNull())
    .addColumn('challenged_since', t.timestamp)
    .addColumn('challenged_until', t.timestamp)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('reasons', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('integrity_buckets_pk', ['poll_id', 'bucket'])
    .execute();

  await db.schema
    .createTable('integrity_actions')
    .addColumn('id', t.id, t.idConstraints)
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text')
    .addColumn('from_at', t.timestamp)
    .addColumn('to_at', t.timestamp)
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('votes', 'integer', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('undoes_id', 'integer')
    /** JSON: the group tallies the action took away or gave back, so it can be undone exactly. */
    .addColumn('group_changes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integrity_actions_poll').on('integrity_actions').columns(['poll_id', 'id']).execute();

  if (postgres) {
    await sql`create or replace function votes_keep_tally() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') and old.status = 'counted' then
          update poll_options set vote_count = vote_count - 1
            where poll_id = old.poll_id and position = old.option_index;
        end if;
        if tg_op = 'UPDATE' and new.status = 'counted' then
          update poll_options set vote_count = vote_count + 1
            where poll_id = new.poll_id and position = new.option_index;
        end if;
        if tg_op = 'DELETE' and old.status <> 'counted' then
          update polls set set_aside_votes = set_aside_votes - 1 where id = old.poll_id;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create or replace function votes_count_inserted() returns trigger language plpgsql as $$
      declare
        tally record;
      begin
        for tally in
          select poll_id, option_index, count(*) as n from new_votes where status = 'counted'
          group by poll_id, option_index order by poll_id, option_index
        loop
          update poll_options set vote_count = vote_count + tally.n
            where poll_id = tally.poll_id and position = tally.option_index;
        end loop;
        insert into poll_group_tallies (poll_id, dimension, group_value, option_index, vote_count)
          select v.poll_id, p.dimension, p.group_value, v.option_index, count(*)
          from new_votes v join profile_answers p on p.voter_id = v.voter_id
          where v.status = 'counted'
          group by v.poll_id, p.dimension, p.group_value, v.option_index
          order by v.poll_id, p.dimension, p.group_value, v.option_index
          on conflict (poll_id, dimension, group_value, option_index)
          do update set vote_count = poll_group_tallies.vote_count + excluded.vote_count;
        for tally in
          select poll_id, count(*) as n from new_votes where status <> 'counted' group by poll_id order by poll_id
        loop
          update polls set set_aside_votes = set_aside_votes + tally.n where id = tally.poll_id;
        end loop;
        return null;
      end $$`.execute(db);
    return;
  }

  // SQLite: the row triggers of 0001 and 0006, now for counted votes only.
  for (const name of ['votes_tally_insert', 'votes_tally_delete', 'votes_tally_update', 'votes_count_groups']) {
    await sql`drop trigger ${sql.id(name)}`.execute(db);
  }
  await sql`create trigger votes_tally_insert after insert on votes when new.status = 'counted' begin
    update poll_options set vote_count = vote_count + 1 where poll_id = new.poll_id and position = new.option_index;
    insert into poll_group_tallies (poll_id, dimension, group_value, option_index, vote_count)
      select new.poll_id, dimension, group_value, new.option_index, 1 from profile_answers where voter_id = new.voter_id
      on conflict (poll_id, dimension, group_value, option_index)
      do update set vote_count = poll_group_tallies.vote_count + 1;
    end`.execute(db);
  await sql`create trigger votes_set_aside_insert after insert on votes when new.status <> 'counted' begin
    update polls set set_aside_votes = set_aside_votes + 1 where id = new.poll_id;
    end`.execute(db);
  await sql`create trigger votes_tally_delete after delete on votes begin
    update poll_options set vote_count = vote_count - 1
      where old.status = 'counted' and poll_id = old.poll_id and position = old.option_index;
    update polls set set_aside_votes = set_aside_votes - 1 where old.status <> 'counted' and id = old.poll_id;
    end`.execute(db);
  await sql`create trigger votes_tally_update after update of poll_id, option_index on votes begin
    update poll_options set vote_count = vote_count - 1
      where old.status = 'counted' and poll_id = old.poll_id and position = old.option_index;
    update poll_options set vote_count = vote_count + 1
      where new.status = 'counted' and poll_id = new.poll_id and position = new.option_index;
    end`.execute(db);
}
