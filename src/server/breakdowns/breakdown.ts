/**
 * A poll's results by group, from its group tallies, under the privacy rule: a group with fewer
 * than MIN_GROUP_SIZE votes is never listed; its votes count as withheld. Nor may the groups
 * listed give a small one away by subtraction: see `buildBreakdown`. Then every count is
 * rounded, once, as it is published (`publishBreakdown`). Pure functions, so the rules are
 * tested on their own; the API and the open data both show what they published.
 */
import type { Breakdown, BreakdownDimension } from '../../shared/api.js';
import { MIN_GROUP_SIZE, PROFILE_DIMENSIONS } from '../../shared/profile.js';
import { resultItems } from '../../shared/results.js';
import { optionLabels, totalVotes, type PollRecord } from '../polls/poll.js';
import type { Weighted } from '../../shared/weighting.js';
import type { GroupTally } from './breakdowns.repository.js';
import { roundCount } from './rounding.js';

/**
 * Everyone's result is public, so in each dimension the overall result less the groups shown
 * gives, option by option, the votes not shown: the withheld groups and those who did not say
 * together. Were they 1 to 9 votes, they would be a small group read by subtraction (12
 * classroom teachers and 2 support staff: one of the two reads the other's vote). So, as
 * statistical disclosure control does, the smallest group shown is withheld as well (secondary
 * suppression). A group shown has at least MIN_GROUP_SIZE votes, so one is always enough.
 */
function suppressSecondary(
  shown: BreakdownDimension['groups'],
  total: number,
): Pick<BreakdownDimension, 'groups' | 'alsoWithheld'> {
  const notShown = total - shown.reduce((sum, group) => sum + group.totalVotes, 0);
  if (notShown <= 0 || notShown >= MIN_GROUP_SIZE || shown.length === 0) return { groups: shown, alsoWithheld: null };
  // The first in the list's order among groups of the same size.
  const smallest = shown.reduce((least, group) => (group.totalVotes < least.totalVotes ? group : least));
  return {
    groups: shown.filter((group) => group !== smallest),
    alsoWithheld: { value: smallest.value, label: smallest.label, totalVotes: smallest.totalVotes },
  };
}

/** A breakdown's true counts, before publication rounds them (publishBreakdown). */
export type CountedBreakdown = Omit<Breakdown, 'roundedTo' | 'correction'>;

export function buildBreakdown(poll: PollRecord, tallies: readonly GroupTally[]): CountedBreakdown {
  const labels = optionLabels(poll);
  const total = totalVotes(poll);
  const dimensions = PROFILE_DIMENSIONS.map(({ dimension, label, groups }): BreakdownDimension => {
    const counts = new Map<string, number[]>();
    for (const tally of tallies) {
      if (tally.dimension !== dimension || tally.optionIndex >= labels.length) continue;
      const row = counts.get(tally.groupValue) ?? labels.map(() => 0);
      row[tally.optionIndex] = (row[tally.optionIndex] ?? 0) + tally.votes;
      counts.set(tally.groupValue, row);
    }
    let said = 0;
    let withheld = 0;
    const large: BreakdownDimension['groups'] = [];
    // In the list's order; an id no longer in the list (retired in a release) is withheld.
    const known = new Set<string>(groups.map((group) => group.id));
    for (const [value, row] of counts) {
      const votes = row.reduce((sum, n) => sum + n, 0);
      said += votes;
      if (!known.has(value) || votes < MIN_GROUP_SIZE) withheld += votes;
    }
    for (const group of groups) {
      const row = counts.get(group.id);
      const votes = row?.reduce((sum, n) => sum + n, 0) ?? 0;
      if (!row || votes < MIN_GROUP_SIZE) continue;
      large.push({ value: group.id, label: group.label, totalVotes: votes, results: resultItems(labels, row) });
    }
    const { groups: shown, alsoWithheld } = suppressSecondary(large, total);
    return {
      dimension,
      label,
      groups: shown,
      withheldVotes: withheld,
      notSaidVotes: Math.max(0, total - said),
      alsoWithheld,
    };
  });
  return {
    pollId: poll.id,
    pollNumber: poll.pollNumber,
    totalVotes: total,
    setAsideVotes: poll.setAsideVotes,
    minGroupSize: MIN_GROUP_SIZE,
    dimensions,
  };
}

/**
 * The groups' adjusted lines keep the same rule (issue 38, item 5). The poll's own line is
 * public, so in each dimension it less the group lines shown would give away the votes in scope
 * of the groups whose line is not shown (withheld groups, lines withheld, voters who did not
 * say). Were they 1 to MIN_GROUP_SIZE − 1 votes, the smallest group line shown is withheld too,
 * as suppressSecondary does for the raw groups; one is enough, each line covering at least
 * MIN_GROUP_SIZE votes.
 */
export function suppressWeightedSecondary(
  dimensions: readonly BreakdownDimension[],
  pollLine: Weighted,
): BreakdownDimension[] {
  return dimensions.map((dimension) => {
    const shown = dimension.groups.filter((group) => group.weighted && !('withheld' in group.weighted));
    const covered = shown.reduce((sum, group) => sum + (group.weighted?.votesInScope ?? 0), 0);
    const notShown = pollLine.votesInScope - covered;
    if (shown.length === 0 || notShown <= 0 || notShown >= MIN_GROUP_SIZE) return dimension;
    const inScope = (group: BreakdownDimension['groups'][number]) => group.weighted?.votesInScope ?? 0;
    const smallest = shown.reduce((least, group) => (inScope(group) < inScope(least) ? group : least));
    return {
      ...dimension,
      groups: dimension.groups.map((group) =>
        group === smallest
          ? { ...group, weighted: { withheld: 'secondary-suppression', votesInScope: inScope(group) } }
          : group,
      ),
    };
  });
}

/** A Weighted line's counts, rounded as the group's are (its percentages are the adjusted ones). */
function roundWeighted(weighted: Weighted, draw: () => number): Weighted {
  const rounded = { ...weighted, votesInScope: roundCount(weighted.votesInScope, draw()) };
  if ('effectiveSample' in rounded) rounded.effectiveSample = roundCount(rounded.effectiveSample, draw());
  return rounded;
}

/**
 * A breakdown as it is published (rounding.ts): every count of a group, of the votes withheld
 * and of those who did not say, drawn once to a multiple of the base; a group's percentages
 * from its rounded counts, its total (never under MIN_GROUP_SIZE) drawn on its own. Which
 * groups are shown was decided on the true counts (buildBreakdown), held and discounted votes
 * in none of them. `draw` gives a uniform number in [0, 1).
 */
export function publishBreakdown(dimensions: readonly BreakdownDimension[], draw: () => number): BreakdownDimension[] {
  return dimensions.map((dimension) => ({
    ...dimension,
    groups: dimension.groups.map((group) => {
      const counts = group.results.map((result) => roundCount(result.votes, draw()));
      return {
        ...group,
        totalVotes: roundCount(group.totalVotes, draw(), MIN_GROUP_SIZE),
        results: resultItems(
          group.results.map((result) => result.option),
          counts,
        ),
        ...(group.weighted ? { weighted: roundWeighted(group.weighted, draw) } : {}),
      };
    }),
    withheldVotes: roundCount(dimension.withheldVotes, draw()),
    notSaidVotes: roundCount(dimension.notSaidVotes, draw()),
    alsoWithheld: dimension.alsoWithheld && {
      ...dimension.alsoWithheld,
      totalVotes: roundCount(dimension.alsoWithheld.totalVotes, draw(), MIN_GROUP_SIZE),
    },
  }));
}
