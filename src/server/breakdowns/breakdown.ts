/**
 * A poll's results by group, from its group tallies, under the privacy rule: a group with fewer
 * than MIN_GROUP_SIZE votes is never listed; its votes count as withheld. A pure function, so
 * the rule is tested on its own.
 */
import type { Breakdown, BreakdownDimension } from '../../shared/api.js';
import { MIN_GROUP_SIZE, PROFILE_DIMENSIONS } from '../../shared/profile.js';
import { resultItems } from '../../shared/results.js';
import { optionLabels, totalVotes, type PollRecord } from '../polls/poll.js';
import type { GroupTally } from './breakdowns.repository.js';

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
    const shown: BreakdownDimension['groups'] = [];
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
      shown.push({ value: group.id, label: group.label, totalVotes: votes, results: resultItems(labels, row) });
    }
    return { dimension, label, groups: shown, withheldVotes: withheld, notSaidVotes: Math.max(0, total - said) };
  });
  return { pollId: poll.id, pollNumber: poll.pollNumber, totalVotes: total, minGroupSize: MIN_GROUP_SIZE, dimensions };
}
