import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';

/**
 * Weighted results (issue 26, src/server/weighting/): what a closed poll's weighted line is
 * computed from, kept so that reading it costs O(cells), never O(votes), and exact whatever
 * staff do to a poll's votes.
 *
 * - votes.voter_profile: the voter's profile as it was when the vote was cast (DESIGN: "each
 *   vote keeps a copy as it was when cast"), as `role/gradeBand/region/experience` ids, an
 *   empty part for an answer not given, null for a voter without a profile. Written by the
 *   vote's own INSERT (votes.repository.ts), followed by today's vote when its voter edits
 *   their profile while voting is open (as the group tallies do). The group tallies read the
 *   profile as it is at a discount or a release, so a voter who changed or forgot their
 *   profile since makes them drift; this copy is what makes the weighted line exact under
 *   discounts, restores, releases and "Forget this browser" (which clears the voter's cookie:
 *   the copy then belongs to an id nobody holds).
 * - poll_profile_tallies: each poll's counted votes per profile and option, the
 *   cross-classification raking needs (at most profiles × options rows, whatever the votes).
 *   A counted vote's INSERT adds to it (the triggers below, beside the option and group
 *   tallies); a staff change of vote statuses counts the poll's rows again from the votes'
 *   copies, in its transaction (review.service.ts).
 * - poll_weighting: the computed weighted line of a closed poll ('poll') and of each breakdown
 *   group ('dimension:group'), computed on the first read after the close and deleted by any
 *   staff change of the poll's votes. `basis` names the targets and rules it was computed
 *   under, `counted_votes` the poll's counted votes then: a row whose either differs is stale.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  const postgres = isPostgres(db);
  const keyOnly = postgres ? sql`` : sql`without rowid`;

  await db.schema.alterTable('votes').addColumn('voter_profile', 'text').execute();
  await db.schema
    .createTable('poll_profile_tallies')
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('voter_profile', 'text', (c) => c.notNull())
    .addColumn('option_index', 'integer', (c) => c.notNull())
    .addColumn('vote_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_profile_tallies_pk', ['poll_id', 'voter_profile', 'option_index'])
    .modifyEnd(keyOnly)
    .execute();
  await db.schema
    .createTable('poll_weighting')
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('basis', 'text', (c) => c.notNull())
    .addColumn('counted_votes', 'integer', (c) => c.notNull())
    .addColumn('weighted', 'text', (c) => c.notNull())
    .addColumn('computed_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_weighting_pk', ['poll_id', 'scope'])
    .execute();

  // Votes cast before this migration: their voters' profiles as they are now, the nearest copy there is.
  await sql`update votes set voter_profile = ${profileOf(sql`votes.voter_id`)}`.execute(db);
  await sql`insert into poll_profile_tallies (poll_id, voter_profile, option_index, vote_count)
    select poll_id, voter_profile, option_index, count(*) from votes
    where status = 'counted' and voter_profile is not null
    group by poll_id, voter_profile, option_index`.execute(db);

  if (postgres) {
    // 0010's statement trigger, with the profile tallies after the group tallies (the same lock order).
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
        insert into poll_profile_tallies (poll_id, voter_profile, option_index, vote_count)
          select poll_id, voter_profile, option_index, count(*) from new_votes
          where status = 'counted' and voter_profile is not null
          group by poll_id, voter_profile, option_index
          order by poll_id, voter_profile, option_index
          on conflict (poll_id, voter_profile, option_index)
          do update set vote_count = poll_profile_tallies.vote_count + excluded.vote_count;
        for tally in
          select poll_id, count(*) as n from new_votes where status <> 'counted' group by poll_id order by poll_id
        loop
          update polls set set_aside_votes = set_aside_votes + tally.n where id = tally.poll_id;
        end loop;
        return null;
      end $$`.execute(db);
    return;
  }
  await sql`create trigger votes_count_profile after insert on votes
    when new.status = 'counted' and new.voter_profile is not null begin
    insert into poll_profile_tallies (poll_id, voter_profile, option_index, vote_count)
      values (new.poll_id, new.voter_profile, new.option_index, 1)
      on conflict (poll_id, voter_profile, option_index)
      do update set vote_count = poll_profile_tallies.vote_count + 1;
    end`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
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
  } else {
    await sql`drop trigger votes_count_profile`.execute(db);
  }
  await db.schema.dropTable('poll_weighting').execute();
  await db.schema.dropTable('poll_profile_tallies').execute();
  await db.schema.alterTable('votes').dropColumn('voter_profile').execute();
}

/**
 * A voter's profile now, as votes.voter_profile holds it. A copy of the expression in
 * src/server/weighting/profile-copy.ts as this migration shipped: a migration never changes.
 */
function profileOf(voterId: RawBuilder<unknown>): RawBuilder<unknown> {
  const answer = (dimension: string) =>
    sql`coalesce(max(case when dimension = ${sql.lit(dimension)} then group_value end), '')`;
  return sql`(select nullif(${answer('role')} || '/' || ${answer('gradeBand')} || '/' || ${answer('region')}
    || '/' || ${answer('experience')}, '///') from profile_answers where voter_id = ${voterId})`;
}
