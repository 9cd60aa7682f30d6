/**
 * A poll's results by group, from its group tallies, under the privacy rule: a group with fewer
 * than MIN_GROUP_SIZE votes is never listed; its votes count as withheld. Nor may the groups
 * listed give a small one away by subtraction: see `buildBreakdown`. A pure function, so the
 * rule is tested on its own; the API and the open data both take their breakdowns from it.
 */
import type { Breakdown, BreakdownDimension } from '../../shared/api.js';
import { MIN_GROUP_SIZE, PROFILE_DIMENSIONS } from '../../shared/profile.js';
import { resultItems } from '../../shared/results.js';
import { optionLabels, totalVotes, type PollRecord } from '../polls/poll.js';
import type { GroupTally } from './breakdowns.repository.js';

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

export function buildBreakdown(poll: PollRecord, tallies: readonly GroupTally[]): Breakdown {
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
