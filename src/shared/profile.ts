/**
 * The optional, anonymous "about you" profile: four coarse answers, each from a fixed list, so
 * that results can be broken down by "teachers like me" without accounts and without anyone
 * being identifiable. No free text, no school names: only these ids are ever stored.
 *
 * Changing a list is a release: ids already stored in past breakdowns must keep their meaning,
 * so an id is never reused for another group, only retired.
 */

export const ROLES = [
  { id: 'classroom-teacher', label: 'Classroom teacher' },
  { id: 'school-leader', label: 'School leader' },
  { id: 'support-staff', label: 'Support staff (aide, counselor, librarian…)' },
  { id: 'other-educator', label: 'Other educator' },
] as const;

export const GRADE_BANDS = [
  { id: 'early-years', label: 'Pre-K / early years' },
  { id: 'elementary', label: 'Elementary (K–5)' },
  { id: 'middle', label: 'Middle (6–8)' },
  { id: 'high', label: 'High (9–12)' },
  { id: 'post-secondary', label: 'College / adult' },
  { id: 'several', label: 'Several levels' },
] as const;

/** The four US census regions, and everyone else. */
export const REGIONS = [
  { id: 'northeast', label: 'Northeast' },
  { id: 'midwest', label: 'Midwest' },
  { id: 'south', label: 'South' },
  { id: 'west', label: 'West' },
  { id: 'outside-us', label: 'Outside the US' },
] as const;

/** Years teaching. */
export const EXPERIENCE_BANDS = [
  { id: '0-2', label: '0–2 years' },
  { id: '3-5', label: '3–5 years' },
  { id: '6-10', label: '6–10 years' },
  { id: '11-20', label: '11–20 years' },
  { id: '21-plus', label: '21+ years' },
] as const;

export const PROFILE_DIMENSIONS = [
  { dimension: 'role', label: 'Role', question: 'Your role', groups: ROLES },
  { dimension: 'gradeBand', label: 'Grade level', question: 'Grade level you teach', groups: GRADE_BANDS },
  { dimension: 'region', label: 'Region', question: 'Where you work', groups: REGIONS },
  { dimension: 'experience', label: 'Experience', question: 'Years teaching', groups: EXPERIENCE_BANDS },
] as const;

export type ProfileDimension = (typeof PROFILE_DIMENSIONS)[number]['dimension'];

type GroupsOf<D extends ProfileDimension> = Extract<(typeof PROFILE_DIMENSIONS)[number], { dimension: D }>['groups'];
export type GroupId<D extends ProfileDimension = ProfileDimension> = GroupsOf<D>[number]['id'];

/** GET and PUT /api/me/profile: each answer an id from its list, or null when not given. */
export type Profile = { [D in ProfileDimension]: GroupId<D> | null };

export const EMPTY_PROFILE: Profile = { role: null, gradeBand: null, region: null, experience: null };

export const PROFILE_DIMENSION_IDS = PROFILE_DIMENSIONS.map((d) => d.dimension);

/**
 * The smallest group a breakdown shows. Below ten votes a group is too small to stay
 * anonymous: a teacher who knows the two other leaders in their district voted, and sees
 * "School leader, Midwest: 3 votes", could work out how each of them voted. Smaller groups are
 * never listed, in the API, on the page or in exports; their votes count as withheld.
 */
export const MIN_GROUP_SIZE = 10;

/**
 * Every count a breakdown publishes is a multiple of this (server: breakdowns/rounding.ts), so
 * that taking known votes away from a group never leaves one person's vote: /methods says how.
 */
export const BREAKDOWN_ROUNDING_BASE = 5;

/** The label of a group id in its dimension, or undefined for an id no list has. */
export function groupLabel(dimension: ProfileDimension, id: string): string | undefined {
  const groups: readonly { id: string; label: string }[] =
    PROFILE_DIMENSIONS.find((d) => d.dimension === dimension)?.groups ?? [];
  return groups.find((group) => group.id === id)?.label;
}

/** Whether a profile has any answer at all. */
export const hasAnyAnswer = (profile: Profile) => PROFILE_DIMENSION_IDS.some((d) => profile[d] !== null);
