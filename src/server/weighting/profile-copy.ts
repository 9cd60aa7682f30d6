/**
 * The copy of a voter's profile each vote keeps (votes.voter_profile, migration 0013): the four
 * answers' ids as `role/gradeBand/region/experience`, an empty part for an answer not given,
 * null for a voter without a profile. Written and read here alone.
 */
import { sql, type RawBuilder } from 'kysely';
import { EMPTY_PROFILE, PROFILE_DIMENSION_IDS, type Profile, type ProfileDimension } from '../../shared/profile.js';

/**
 * SQL text: the profile of the voter `voterId` (SQL text) names, now, as a vote keeps it (null
 * without one): one look-up of the voter's answers by their key.
 */
export function voterProfileSql(voterId: string): string {
  const answer = (dimension: ProfileDimension) =>
    `coalesce(max(case when dimension = '${dimension}' then group_value end), '')`;
  const none = '/'.repeat(PROFILE_DIMENSION_IDS.length - 1);
  return `(select nullif(${PROFILE_DIMENSION_IDS.map(answer).join(" || '/' || ")}, '${none}')
    from profile_answers where voter_id = ${voterId})`;
}

const [before = '', after = ''] = voterProfileSql('\u0000').split('\u0000');

/** The same as a Kysely expression, for a bound value or a column. */
export const voterProfileOf = (voterId: RawBuilder<unknown>): RawBuilder<string | null> =>
  sql<string | null>`${sql.raw(before)}${voterId}${sql.raw(after)}`;

/** A vote's copy as a Profile; an id no list has stays as it is, for weightingCell to refuse. */
export function parseVoterProfile(copy: string): Profile {
  const parts = copy.split('/');
  const profile: Record<ProfileDimension, string | null> = { ...EMPTY_PROFILE };
  PROFILE_DIMENSION_IDS.forEach((dimension, i) => {
    const part = parts[i];
    profile[dimension] = part === undefined || part === '' ? null : part;
  });
  return profile as Profile;
}
