/**
 * Breakdowns as a test expects to see them, written as tables: a group is its id, its label and
 * [votes, percentage] for each option, so the numbers a test checks stand side by side. The ids,
 * labels and numbers stay in each test; these only build the objects around them.
 */
import type { BreakdownDimension, BreakdownGroup } from '../../shared/api.js';
import type { Weighted } from '../../shared/weighting.js';

/**
 * A group a breakdown shows, its options in the poll's order; its total is what their votes add
 * up to. The API's groups carry their weighted line too (`weighted`); buildBreakdown's do not.
 */
export function shownGroup(
  value: string,
  label: string,
  results: Record<string, [votes: number, percentage: number]>,
  weighted?: Weighted,
): BreakdownGroup {
  const rows = Object.entries(results);
  return {
    value,
    label,
    totalVotes: rows.reduce((sum, [, [votes]]) => sum + votes, 0),
    results: rows.map(([option, [votes, percentage]]) => ({ option, votes, percentage })),
    ...(weighted ? { weighted } : {}),
  };
}

/** The weighted line of a group or poll none of whose votes is in its scope. */
export const NONE_IN_SCOPE: Weighted = { withheld: 'too-few-votes', votesInScope: 0 };

/** The "Role" dimension of a breakdown: the groups it shows, and the votes it does not. */
export function roleDimension(
  shown: Pick<BreakdownDimension, 'groups' | 'withheldVotes' | 'notSaidVotes'> &
    Partial<Pick<BreakdownDimension, 'alsoWithheld'>>,
): BreakdownDimension {
  return { dimension: 'role', label: 'Role', alsoWithheld: null, ...shown };
}
