/**
 * The weighted line of a closed poll and of its breakdown groups (issue 26): raked by
 * weigh.ts from the poll's profile tallies, computed once on the first read after the close
 * and kept in poll_weighting until staff change the poll's counted votes. Reading a kept line
 * is one read by key; computing one reads O(profiles × options) rows: never O(votes).
 *
 * Never while voting is open: callers ask only for past polls and today's after the close.
 */
import { createHash } from 'node:crypto';
import type { BreakdownDimension } from '../../shared/api.js';
import { weightingCell, type Weighted } from '../../shared/weighting.js';
import { isForeignKeyViolation } from '../db/errors.js';
import type { ServiceDeps } from '../service-deps.js';
import { parseVoterProfile } from './profile-copy.js';
import { weightingOpenData } from './targets.js';
import { weighWithInterval } from './interval.js';
import { weigh, type CellCount } from './weigh.js';
import { profileTallies, storedWeighting, storeWeighting, type ProfileTally } from './weighting.repository.js';

/** The scope of a poll's own line; a group's is `dimension:group`. */
const POLL_SCOPE = 'poll';
const groupScope = (dimension: string, group: string) => `${dimension}:${group}`;

/** The targets, thresholds and cap a line was computed under: a release that changes them recomputes. */
const BASIS = createHash('sha256').update(JSON.stringify(weightingOpenData())).digest('hex').slice(0, 16);

/** The cells raking needs, from the votes of these profiles (those in no cell count in the raw result only). */
function cellsOf(
  tallies: readonly ProfileTally[],
  inGroup: (profile: ReturnType<typeof parseVoterProfile>) => boolean,
) {
  const cells = new Map<string, CellCount>();
  for (const tally of tallies) {
    const profile = parseVoterProfile(tally.voterProfile);
    if (!inGroup(profile)) continue;
    const cell = weightingCell(profile);
    if (!cell) continue;
    const key = `${cell.grade}\u0000${cell.region}\u0000${cell.years}\u0000${tally.optionIndex}`;
    const kept = cells.get(key);
    if (kept) kept.votes += tally.votes;
    else cells.set(key, { ...cell, optionIndex: tally.optionIndex, votes: tally.votes });
  }
  return [...cells.values()];
}

/** What the service reads of a closed poll (a PollRecord is one): its id and its options' counted votes. */
export interface ClosedPoll {
  id: number;
  options: readonly { votes: number }[];
}

export function createWeightingService({ db, clock }: Pick<ServiceDeps, 'db' | 'clock'>) {
  /**
   * The lines of these scopes of a closed poll: the kept ones when still current, the others
   * computed from one read of the poll's profile tallies, then kept.
   */
  async function computeLines(
    poll: ClosedPoll,
    scopes: readonly string[],
    counted: number,
  ): Promise<Map<string, Weighted>> {
    const lines = new Map<string, Weighted>();
    for (const row of await storedWeighting(db, poll.id, scopes)) {
      if (row.basis === BASIS && row.countedVotes === counted) {
        lines.set(row.scope, JSON.parse(row.weighted) as Weighted);
      }
    }
    const missing = scopes.filter((scope) => !lines.has(scope));
    if (missing.length === 0) return lines;
    const tallies = await profileTallies(db, poll.id);
    const optionCount = poll.options.length;
    const computed = missing.map((scope) => {
      const at = scope.indexOf(':');
      const weighted =
        at < 0
          ? weighWithInterval(
              cellsOf(tallies, () => true),
              optionCount,
              poll.id,
            )
          : weigh(
              cellsOf(
                tallies,
                (profile) => (profile as Record<string, string | null>)[scope.slice(0, at)] === scope.slice(at + 1),
              ),
              optionCount,
              'group',
            );
      lines.set(scope, weighted);
      return { scope, basis: BASIS, countedVotes: counted, weighted: JSON.stringify(weighted) };
    });
    try {
      await storeWeighting(db, poll.id, computed, clock.now().toISOString());
    } catch (error) {
      // Staff deleted the poll meanwhile: the reader still gets the line it asked for.
      if (!isForeignKeyViolation(error)) throw error;
    }
    return lines;
  }

  /**
   * One computation per poll, count and scopes at a time in this process: the close of a large
   * poll (a second of raking and resampling at 100,000 votes) is met by everyone waiting for its
   * results, and each of them would otherwise compute the same line before the first one is kept.
   */
  const inFlight = new Map<string, Promise<Map<string, Weighted>>>();
  function linesOf(poll: ClosedPoll, scopes: readonly string[]): Promise<Map<string, Weighted>> {
    const counted = poll.options.reduce((sum, option) => sum + option.votes, 0);
    const key = `${poll.id}\u0000${counted}\u0000${scopes.join('\u0000')}`;
    const pending = inFlight.get(key);
    if (pending) return pending;
    const lines = computeLines(poll, scopes, counted).finally(() => inFlight.delete(key));
    inFlight.set(key, lines);
    return lines;
  }

  return {
    /** A closed poll's weighted line. */
    async ofPoll(poll: ClosedPoll): Promise<Weighted> {
      const lines = await linesOf(poll, [POLL_SCOPE]);
      return lines.get(POLL_SCOPE) as Weighted;
    },

    /** A closed poll's breakdown dimensions with each group shown given its weighted line. */
    async ofGroups(poll: ClosedPoll, dimensions: BreakdownDimension[]): Promise<BreakdownDimension[]> {
      const scopes = dimensions.flatMap((d) => d.groups.map((group) => groupScope(d.dimension, group.value)));
      if (scopes.length === 0) return dimensions;
      const lines = await linesOf(poll, scopes);
      return dimensions.map((d) => ({
        ...d,
        groups: d.groups.map((group) => {
          const weighted = lines.get(groupScope(d.dimension, group.value));
          return weighted ? { ...group, weighted } : group;
        }),
      }));
    },
  };
}

export type WeightingService = ReturnType<typeof createWeightingService>;
