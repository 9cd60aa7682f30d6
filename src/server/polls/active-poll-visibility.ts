/**
 * What a visitor sees of today's poll (DESIGN.md, Privacy), as a pure function of the poll,
 * the visitor and the moment:
 * - No peeking: until the visitor has voted, and until the close time, the per-option results
 *   are withheld, so nobody is swayed by them; the total may show.
 * - A voter sees their own vote: which option they chose, and the results.
 * - The earlier runs of a question asked again show with the results, not before: last
 *   time's answer would sway a vote as much as today's.
 * - Identity is the voter cookie alone. The `email` hint of the request is not identity (anyone
 *   can type anyone's address), so it never widens what a visitor sees: not someone else's
 *   vote, nor the results.
 *
 * Every visitor is in one of a handful of sights (not voted yet, or voted for option n; before
 * or after the close), so polls.service.ts writes each answer once per reading of the poll and
 * reuses it for everyone with the same sight.
 */
import type { ActivePoll, SeriesRun } from '../../shared/api.js';
import type { VotingDay } from '../../shared/time.js';
import type { Weighted } from '../../shared/weighting.js';
import { resultsOf, toPoll, totalVotes, type PollRecord } from './poll.js';

export interface Visitor {
  /** The vote of this browser (its voter cookie) on the poll, if it has voted; `held` while held for a check. */
  ownVote: { optionIndex: number; held?: boolean } | undefined;
  /** The address the request names in `?email=`, if it names one. */
  emailHint?: string | undefined;
}

/** Everything besides the poll that decides what a visitor sees. */
export interface Sight {
  /** The option this visitor chose; null before voting. */
  ownOption: number | null;
  /** This visitor's vote is held for a check (integrity/): in no figure yet. */
  ownVoteHeld: boolean;
  votingOpen: boolean;
  closesAt: Date;
}

/** Where `visitor` stands on `day`. The e-mail hint plays no part (see above). */
export function sightOf(visitor: Visitor, day: Pick<VotingDay, 'votingOpen' | 'closesAt'>): Sight {
  return {
    ownOption: visitor.ownVote?.optionIndex ?? null,
    ownVoteHeld: visitor.ownVote?.held === true,
    votingOpen: day.votingOpen,
    closesAt: day.closesAt,
  };
}

/** Visitors whose sights have the same key see the same answer. */
export const sightKey = (sight: Sight): string =>
  `${sight.ownOption ?? '-'}${sight.ownVoteHeld ? 'h' : ''}|${sight.closesAt.getTime()}|${sight.votingOpen}`;

/**
 * Today's poll as a visitor with this sight may see it; `earlierRuns` are its series' past runs;
 * `weighted`: the weighted line, given once voting has closed (never live).
 *
 * Honest to voters, silent to stuffers (issue 37): how many votes were set aside is published
 * only once voting has closed (a count that grows with each held vote would tell a stuffer
 * where the line is), and a voter whose vote is held is told so, sees no results while voting
 * is open (they would claim to include it) and, after the close, no option marked as theirs.
 */
export function activePollAsSeen(
  poll: PollRecord,
  sight: Sight,
  earlierRuns: SeriesRun[] = [],
  weighted?: Weighted,
): ActivePoll {
  const userVoted = sight.ownOption !== null;
  const held = userVoted && sight.ownVoteHeld;
  const resultsShown = (userVoted && !held) || !sight.votingOpen;
  return {
    ...toPoll(poll),
    userVoted,
    userVoteOption: held ? null : sight.ownOption,
    voteHeld: held,
    totalVotes: totalVotes(poll),
    setAsideVotes: sight.votingOpen ? null : poll.setAsideVotes,
    results: resultsShown ? resultsOf(poll) : null,
    votingOpen: sight.votingOpen,
    closesAt: sight.closesAt.toISOString(),
    series: resultsShown ? earlierRuns : null,
    ...(!sight.votingOpen && weighted ? { weighted } : {}),
  };
}
