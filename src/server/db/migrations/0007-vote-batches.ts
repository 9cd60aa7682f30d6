import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';

/**
 * Votes are written in batches (group commit): on PostgreSQL one multi-row INSERT per batch,
 * and two instances may run theirs at once. The row-level triggers of 0001 and 0006 updated
 * the tallies row by row, in the order of the batch, so two batches that touch the same tally
 * rows in different orders deadlocked. On PostgreSQL a new vote is now counted once per
 * statement: the statement's new rows are added up per tally row and the tallies are updated
 * in key order, the option tallies first, then the group tallies, so concurrent batches always
 * lock them in the same order. Deleting or moving a vote still goes through the row trigger.
 *
 * SQLite has one writer at a time and no statement triggers; its row triggers stay. (Its votes
 * table is not rebuilt, so 0006's trigger stays in place.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger votes_keep_tally on votes`.execute(db);
  await sql`create trigger votes_keep_tally after delete or update of poll_id, option_index
    on votes for each row execute function votes_keep_tally()`.execute(db);
  await sql`drop trigger votes_count_groups on votes`.execute(db);
  await sql`drop function votes_count_groups()`.execute(db);
  await sql`create function votes_count_inserted() returns trigger language plpgsql as $$
    declare
      tally record;
    begin
      for tally in
        select poll_id, option_index, count(*) as n from new_votes
        group by poll_id, option_index order by poll_id, option_index
      loop
        update poll_options set vote_count = vote_count + tally.n
          where poll_id = tally.poll_id and position = tally.option_index;
      end loop;
      insert into poll_group_tallies (poll_id, dimension, group_value, option_index, vote_count)
        select v.poll_id, p.dimension, p.group_value, v.option_index, count(*)
        from new_votes v join profile_answers p on p.voter_id = v.voter_id
        group by v.poll_id, p.dimension, p.group_value, v.option_index
        order by v.poll_id, p.dimension, p.group_value, v.option_index
        on conflict (poll_id, dimension, group_value, option_index)
        do update set vote_count = poll_group_tallies.vote_count + excluded.vote_count;
      return null;
    end $$`.execute(db);
  await sql`create trigger votes_count_inserted after insert on votes
    referencing new table as new_votes for each statement execute function votes_count_inserted()`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger votes_count_inserted on votes`.execute(db);
  await sql`drop function votes_count_inserted()`.execute(db);
  await sql`create function votes_count_groups() returns trigger language plpgsql as $$
    begin
      insert into poll_group_tallies (poll_id, dimension, group_value, option_index, vote_count)
        select new.poll_id, dimension, group_value, new.option_index, 1 from profile_answers where voter_id = new.voter_id
        on conflict (poll_id, dimension, group_value, option_index)
        do update set vote_count = poll_group_tallies.vote_count + 1;
      return null;
    end $$`.execute(db);
  await sql`create trigger votes_count_groups after insert on votes
    for each row execute function votes_count_groups()`.execute(db);
  await sql`drop trigger votes_keep_tally on votes`.execute(db);
  await sql`create trigger votes_keep_tally after insert or delete or update of poll_id, option_index
    on votes for each row execute function votes_keep_tally()`.execute(db);
}
