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

/**
 * Years teaching, counting this school year, in the National Center for Education Statistics'
 * bands (NTPS: "3 years or less", 4–9, 10–14, "15 or more"), so that every answer has its
 * place in the figures the weighted line is raked to (issue 38; docs/weighting.md).
 */
export const EXPERIENCE_BANDS = [
  { id: '1-3', label: '1–3 years' },
  { id: '4-9', label: '4–9 years' },
  { id: '10-14', label: '10–14 years' },
  { id: '15-plus', label: '15+ years' },
] as const;

/**
 * The bands asked until issue 38, in completed years. Retired, never asked again, never reused:
 * answers given with them keep their meaning, stay valid, and are shown apart in breakdowns.
 */
export const RETIRED_EXPERIENCE_BANDS = [
  { id: '0-2', label: '0–2 years (earlier question)' },
  { id: '3-5', label: '3–5 years (earlier question)' },
  { id: '6-10', label: '6–10 years (earlier question)' },
  { id: '11-20', label: '11–20 years (earlier question)' },
  { id: '21-plus', label: '21+ years (earlier question)' },
] as const;

/** Every years-teaching answer a profile can hold: the bands asked now, then the retired ones. */
export const EXPERIENCE_ANSWERS = [...EXPERIENCE_BANDS, ...RETIRED_EXPERIENCE_BANDS] as const;

/**
 * Each dimension's `groups` are every answer a stored profile can hold (breakdowns list them in
 * this order); `asked` are the choices the form offers today.
 */
export const PROFILE_DIMENSIONS = [
  { dimension: 'role', label: 'Role', question: 'Your role', groups: ROLES, asked: ROLES },
  {
    dimension: 'gradeBand',
    label: 'Grade level',
    question: 'Grade level you teach',
    groups: GRADE_BANDS,
    asked: GRADE_BANDS,
  },
  { dimension: 'region', label: 'Region', question: 'Where you work', groups: REGIONS, asked: REGIONS },
  {
    dimension: 'experience',
    label: 'Experience',
    question: 'Years teaching, counting this school year',
    groups: EXPERIENCE_ANSWERS,
    asked: EXPERIENCE_BANDS,
  },
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
