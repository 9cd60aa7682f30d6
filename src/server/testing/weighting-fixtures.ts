/**
 * Classroom teachers' votes with full profiles, for tests of the weighted line: a sample skewed
 * towards high-school teachers and new teachers, as a poll shared in a high-school group is, and
 * the profile tallies read two ways, as kept and as counted from the votes' copies.
 */
import { sql } from 'kysely';
import type { Profile } from '../../shared/profile.js';
import type { Db } from '../db/connection.js';
import type { PollRecord } from '../polls/poll.js';
import { seedProfiledVotes } from './fixtures.js';

const REGIONS = ['northeast', 'midwest', 'south', 'west'] as const;
const YEARS = ['0-2', '11-20'] as const;

/**
 * 200 classroom teachers in every grade level, region and two bands of years: high-school
 * teachers (80) vote 8 to 2 for the first option, the others (120) 2 to 3. Raw: 56% for the
 * first option; adjusted to the NCES mix (27.7% high-school teachers, not 40%), 51%.
 */
export async function seedSkewedTeachers(db: Db, poll: Pick<PollRecord, 'id' | 'liveDate'>, now?: Date) {
  const groups: { profile: Partial<Profile>; votes: number[] }[] = [];
  for (const gradeBand of ['elementary', 'middle', 'high', 'several'] as const) {
    for (const region of REGIONS) {
      for (const experience of YEARS) {
        groups.push({
          profile: { role: 'classroom-teacher', gradeBand, region, experience },
          votes: gradeBand === 'high' ? [8, 2] : [2, 3],
        });
      }
    }
  }
  await seedProfiledVotes(db, poll, groups, now);
}

/** `count` classroom teachers in one cell, all for option 0: too few, or too narrow a mix. */
export async function seedOneCellOfTeachers(db: Db, poll: Pick<PollRecord, 'id' | 'liveDate'>, count: number) {
  await seedProfiledVotes(db, poll, [
    {
      profile: { role: 'classroom-teacher', gradeBand: 'high', region: 'south', experience: '3-5' },
      votes: [count],
    },
  ]);
}

/** "profile/option: votes", sorted, zeros left out. */
export type ProfileLines = string[];

/** A poll's profile tallies as the database keeps them. */
export async function keptProfileTallies(db: Db, pollId: number): Promise<ProfileLines> {
  const rows = await db
    .selectFrom('poll_profile_tallies')
    .select(['voter_profile', 'option_index', 'vote_count'])
    .where('poll_id', '=', pollId)
    .where('vote_count', '<>', 0)
    .execute();
  return rows.map((row) => `${row.voter_profile}/${row.option_index}: ${row.vote_count}`).sort();
}

/** The same, counted from the counted votes' copies of their voters' profiles. */
export async function profileTalliesFromVotes(db: Db, pollId: number): Promise<ProfileLines> {
  const { rows } = await sql<{ voter_profile: string; option_index: number; n: number | string }>`
    select voter_profile, option_index, count(*) as n from votes
    where poll_id = ${pollId} and status = 'counted' and voter_profile is not null
    group by voter_profile, option_index`.execute(db);
  return rows.map((row) => `${row.voter_profile}/${row.option_index}: ${Number(row.n)}`).sort();
}
