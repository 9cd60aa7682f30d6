/**
 * What staff see of a poll's votes and do about them (issue 25, section 3; DESIGN.md, "Vote
 * integrity"): the integrity report (read in review-report.service.ts), and four reversible
 * actions, each one transaction that also writes its line of the append-only integrity log.
 *
 * - A discount sets the counted votes of one network between two instants aside; a restore
 *   counts exactly those again (those the discount still holds); a release counts held votes.
 *   Nothing is deleted.
 * - The option tallies and the set-aside count change by exactly the votes the action moves,
 *   counted in the same transaction under the tally locks before their status changes, so every
 *   tally always equals the count of counted votes, and they cost what the action moves, not a
 *   recount of a 1,000,000-vote poll (issue 37 item 10). So do the profile tallies (the weighted
 *   line), unless a browser was forgotten since its counted vote (it keeps its tally, not its
 *   copy): then they are counted again, once (polls.profile_tallies_stale).
 * - Group tallies (the breakdowns) cannot be counted again: a vote keeps no copy of its voter's
 *   profile, by design, so that no row ties a vote to a description of the person who cast it;
 *   the tallies hold the groups as they were when each vote was counted. So a discount takes
 *   the votes out of their voters' groups as the profiles read now (never below zero: a voter
 *   may have changed groups since), records exactly what it took, and its restore gives
 *   exactly that back. A release adds the votes to their voters' groups as they read now, as
 *   the database does for a vote counted on arrival.
 *
 * Once voting on the poll is over, its breakdown is published before the change, if it was not
 * yet (breakdowns.service.ts): what the change does moves everyone's result, never a group's
 * published figures (issue 34, item 14).
 *
 * After each change this instance's copy of today's poll is dropped (the pages drawn from it
 * go with it; other instances read theirs again within a second), and a change to a past poll
 * marks past polls changed, so the open data is built again on every instance.
 */
import type { AuditWrite } from '../staff/audit.js';
import type { IntegrityAction } from '../../shared/api.js';
import { votingDayAt } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import { createBreakdownsService } from '../breakdowns/breakdowns.service.js';
import { isForeignKeyViolation } from '../db/errors.js';
import { findPollStatus, markPastPollsChanged } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { bucketLabel, toIntegrityAction } from './review-report.js';
import { integrityReport } from './review-report.service.js';
import { FAST_MEDIAN_MS, SURGE_KEY, splitMatches } from '../integrity/detector.js';
import { votesInRange, type DiscountSignal, type VoteRange } from './review-figures.repository.js';
import {
  actionsOf,
  completeAction,
  discountVotes,
  findAction,
  findRestoreOf,
  insertAction,
  releaseVotes,
  restoreVotes,
  setChallengeEveryone,
  challengedBuckets,
  countedOutside,
  endedChallenges,
  heldPerOption,
  pollOfDay,
  type ActionRow,
  type HeldPick,
} from './review.repository.js';
import {
  addToGroups,
  groupsOfVotes,
  lockTallies,
  moveProfileTallies,
  moveTallies,
  movedByDiscount,
  movedByRelease,
  movedByRestore,
  takeFromGroups,
  type MovedVotes,
} from './review-tallies.repository.js';
import { forgetWeighting, recountProfileTallies } from '../weighting/weighting.repository.js';

/** Who the integrity log names for what the site did on its own. */
export const SITE_ACTOR = 'The site';
/** The release when a challenge ends looks this far back: the jobs run it every 30 s. */
const RELEASE_LOOK_BACK_MS = 60 * 60_000;

/**
 * The counted votes between two instants (both included) of one network, or with one signal (a
 * surge set aside in one action: "first-time cookies between 10:02 and 10:06"), and why.
 */
export interface Discount extends VoteRange {
  reason: string;
}

const SIGNAL_WORDS: Record<DiscountSignal, string> = {
  'first-time': 'First-time browsers',
  'no-page': 'Votes without a page',
};

export type ReviewRefusal =
  | 'not-found'
  /** A restore of no discount of this poll. */
  | 'no-such-discount'
  /** The network has no counted votes in that time. */
  | 'nothing-to-discount'
  | 'already-restored'
  | 'nothing-held'
  /** The challenge switch of a poll whose voting is over. */
  | 'voting-over';

export type ReviewResult = { outcome: ReviewRefusal } | { outcome: 'done'; action: IntegrityAction };

export type ChallengeResult =
  { outcome: 'not-found' | 'voting-over' } | { outcome: 'done'; on: boolean; action: IntegrityAction | null };

/** Thrown inside a transaction to end it, changing nothing, with a refusal. */
class Refused extends Error {
  constructor(readonly outcome: ReviewRefusal) {
    super(outcome);
  }
}

export function createReviewService({
  db,
  clock,
  site,
  activePoll,
}: Pick<ServiceDeps, 'db' | 'clock' | 'site' | 'activePoll'>) {
  const breakdowns = createBreakdownsService({ db, clock, site });
  /**
   * Moves a poll's votes in one transaction holding its tally locks: `work` changes their
   * status and says what it moved; the tallies follow, and `audit` writes staff's line. Gives
   * what `work` gave. A refusal rolls everything back (Refused).
   */
  async function moveVotes<T extends { moved: MovedVotes[]; counted: boolean }>(
    pollId: number,
    work: (trx: Db) => Promise<T>,
    audit?: AuditWrite,
  ): Promise<T> {
    const done = await db.transaction().execute(async (trx) => {
      await lockTallies(trx, pollId);
      const status = await findPollStatus(trx, pollId);
      if (!status) throw new Refused('not-found');
      await breakdowns.publishBeforeChange(trx, pollId);
      const done = await work(trx);
      await moveTallies(trx, pollId, done.moved, done.counted);
      // Moved too, unless a browser forgotten since its vote kept its tally but lost its copy:
      // then counted again (weighted-results.storage.test.ts).
      await moveProfileTallies(trx, pollId, done.moved, done.counted, recountProfileTallies);
      await forgetWeighting(trx, pollId);
      // What today's poll shows goes past with it (markPastPollsChanged's own rule).
      if (status === 'past') await markPastPollsChanged(trx);
      await audit?.(trx);
      return done;
    });
    activePoll.invalidate();
    return done;
  }

  /** The refusal a change ended with, or undefined for an error that is not one. */
  const refusalOf = (error: unknown): ReviewRefusal | undefined =>
    error instanceof Refused ? error.outcome : isForeignKeyViolation(error) ? 'not-found' : undefined;

  /**
   * A change to a poll's votes written to the integrity log (moveVotes); gives the new log
   * entry as staff read it. A poll deleted meanwhile is 'not-found'.
   */
  async function change(
    pollId: number,
    work: (trx: Db, now: string) => Promise<{ id: number; moved: MovedVotes[]; counted: boolean }>,
    audit?: AuditWrite,
  ): Promise<ReviewResult> {
    const now = clock.now().toISOString();
    try {
      const { id } = await moveVotes(pollId, (trx) => work(trx, now), audit);
      return { outcome: 'done', action: await loggedAction(pollId, id) };
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === undefined) throw error;
      return { outcome: refusal };
    }
  }

  /**
   * Counts the held votes a pick names, and adds them to their voters' groups as the profiles
   * read now (read before they are counted, since then nothing tells them from the others; no
   * held vote can arrive meanwhile, as the poll's tallies are locked).
   */
  async function countHeld(trx: Db, pollId: number, pick: HeldPick) {
    const groups = await groupsOfVotes(trx, pollId, { held: true, ...pick });
    const moved = await movedByRelease(trx, pollId, pick);
    const votes = await releaseVotes(trx, pollId, pick);
    if (votes === 0) throw new Refused('nothing-held');
    await addToGroups(trx, pollId, groups);
    return { groups, moved, votes, counted: true };
  }

  async function loggedAction(pollId: number, id: number): Promise<IntegrityAction> {
    const log = await actionsOf(db, pollId);
    const action = log.find((entry) => entry.id === id);
    if (!action) throw new Error(`integrity action ${id} vanished`);
    return toIntegrityAction(action, log);
  }

  /** The polls this instance released at the close already (releaseAtClose). */
  const closeChecked = new Set<number>();

  /** Whether a network's held votes (a pick with its bucket) split like everyone else's counted votes. */
  async function heldSplitsLikeTheRest(pollId: number, pick: HeldPick & { bucket: string }): Promise<boolean> {
    const block = await heldPerOption(db, pollId, pick);
    if (block.every((n) => n === 0)) return false;
    return splitMatches(block, await countedOutside(db, pollId, pick.bucket));
  }

  const logEntry = (
    pollId: number,
    now: string,
    entry: Pick<ActionRow, 'kind' | 'actor' | 'reason'> &
      Partial<Pick<ActionRow, 'bucket' | 'from' | 'to' | 'undoesId'>>,
  ) => ({
    pollId,
    bucket: null,
    from: null,
    to: null,
    votes: 0,
    undoesId: null,
    createdAt: now,
    ...entry,
  });

  const service = {
    /** Everything the integrity view shows of a poll; undefined for an unknown poll. */
    report: (pollId: number) => integrityReport({ db, clock, site }, pollId),

    /** Sets a network's counted votes between two instants aside. */
    discount(pollId: number, discount: Discount, actor: string, audit?: AuditWrite): Promise<ReviewResult> {
      return change(
        pollId,
        async (trx, now) => {
          const { reason, signal, ...range } = discount;
          const inRange = await votesInRange(trx, pollId, { ...range, signal });
          if (!inRange.counts.some((count) => count.status === 'counted' && count.votes > 0)) {
            throw new Refused('nothing-to-discount');
          }
          // The log has no column for the signal: its reason says it, in words.
          const said = signal === undefined ? reason : `${SIGNAL_WORDS[signal]}: ${reason}`;
          const entry = { kind: 'discount' as const, actor, reason: said, ...range, bucket: range.bucket ?? null };
          const id = await insertAction(trx, logEntry(pollId, now, entry));
          const moved = await movedByDiscount(trx, pollId, { ...range, signal });
          const votes = await discountVotes(trx, pollId, { ...range, signal }, id);
          const taken = await takeFromGroups(trx, pollId, await groupsOfVotes(trx, pollId, { discountId: id }));
          await completeAction(trx, id, votes, taken);
          return { id, moved, counted: false };
        },
        audit,
      );
    },

    /** Counts a discount's votes again, and gives their groups back exactly what it took. */
    restore(pollId: number, discountId: number, actor: string, audit?: AuditWrite): Promise<ReviewResult> {
      return change(
        pollId,
        async (trx, now) => {
          const discount = await findAction(trx, pollId, discountId);
          if (discount?.kind !== 'discount') throw new Refused('no-such-discount');
          if ((await findRestoreOf(trx, pollId, discountId)) !== undefined) throw new Refused('already-restored');
          const id = await insertAction(
            trx,
            logEntry(pollId, now, {
              kind: 'restore',
              actor,
              reason: `Restores discount #${discountId}`,
              bucket: discount.bucket,
              from: discount.from,
              to: discount.to,
              undoesId: discountId,
            }),
          );
          const moved = await movedByRestore(trx, pollId, discountId);
          const votes = await restoreVotes(trx, pollId, discountId);
          const given = discount.groupChanges.map((taken) => ({ ...taken, votes: -taken.votes }));
          await addToGroups(trx, pollId, given);
          await completeAction(trx, id, votes, given);
          return { id, moved, counted: true };
        },
        audit,
      );
    },

    /** Counts the held votes of one network (or every held vote of the poll). */
    release(
      pollId: number,
      bucket: string | undefined,
      actor: string,
      reason = '',
      audit?: AuditWrite,
      pick: Omit<HeldPick, 'bucket'> = {},
    ): Promise<ReviewResult> {
      return change(
        pollId,
        async (trx, now) => {
          const entry = { kind: 'release' as const, actor, reason, bucket: bucket ?? null };
          const id = await insertAction(trx, logEntry(pollId, now, entry));
          const { groups, moved, votes } = await countHeld(trx, pollId, { bucket, ...pick });
          await completeAction(trx, id, votes, groups);
          return { id, moved, counted: true };
        },
        audit,
      );
    },

    /**
     * Counts one browser's held vote when the proof of work it was asked for arrives after it
     * (votes.service.ts, proveVote), as a release of that one vote. It writes no line in the
     * integrity log: a vote counted with its proof on arrival writes none either, and a school's
     * morning would otherwise fill staff's log with one line per teacher. Gives false when the
     * vote was not held any more (counted meanwhile, set aside, or the poll deleted).
     */
    async countProvenVote(pollId: number, voterId: string): Promise<boolean> {
      try {
        await moveVotes(pollId, (trx) => countHeld(trx, pollId, { bucket: undefined, voterId }));
        return true;
      } catch (error) {
        if (refusalOf(error) === undefined) throw error;
        return false;
      }
    },

    /**
     * When a network's challenge ends (issue 37 item 4), counts the votes it held that show no
     * anomaly of their own: cast from a page read for at least FAST_MEDIAN_MS, so neither
     * without a page nor too quick (a teacher without scripts, or whose proof failed). A
     * griefer's ballot-less votes stay held for staff. Logged as a release by the site, once per
     * ended challenge with such votes (a later run finds none). Looks back `lookBackMs`, more
     * than the time between two runs. Gives how many votes were counted.
     */
    async releaseEndedChallenges(lookBackMs = RELEASE_LOOK_BACK_MS): Promise<number> {
      const now = clock.now();
      const since = new Date(now.getTime() - lookBackMs).toISOString();
      let released = 0;
      for (const ended of await endedChallenges(db, since, now.toISOString())) {
        if (ended.bucket === SURGE_KEY) continue;
        const pick = { bucket: ended.bucket, pageAtLeastMs: FAST_MEDIAN_MS, before: ended.until };
        if (!(await heldSplitsLikeTheRest(ended.pollId, pick))) continue;
        const reason = `The challenge of ${bucketLabel(ended.bucket)} ended; these held votes showed no anomaly`;
        const result = await service.release(ended.pollId, ended.bucket, SITE_ACTOR, reason, undefined, pick);
        if (result.outcome === 'done') released += result.action.votes;
      }
      return released;
    },

    /**
     * At the close of voting, counts each challenged network's held votes that show no anomaly
     * of their own (as when a challenge ends) and split like the rest of the poll: a school's
     * teachers without scripts whose challenge outlasted the day. A skewed block stays held for
     * staff. Runs with the jobs for the polls whose voting closed in the last `lookBackMs`, once
     * per poll on this instance (another instance's run finds nothing more that matches).
     * Gives how many votes were counted.
     */
    async releaseAtClose(lookBackMs = RELEASE_LOOK_BACK_MS): Promise<number> {
      const now = clock.now().getTime();
      let released = 0;
      for (const daysBack of [1, 0]) {
        const day = votingDayAt(new Date(now - daysBack * 86_400_000), site);
        const closesAt = day.closesAt.getTime();
        if (closesAt > now || closesAt <= now - lookBackMs) continue;
        const pollId = await pollOfDay(db, day.date);
        if (pollId === undefined || closeChecked.has(pollId)) continue;
        for (const bucket of await challengedBuckets(db, pollId)) {
          if (bucket === SURGE_KEY) continue;
          const pick = { bucket, pageAtLeastMs: FAST_MEDIAN_MS };
          if (!(await heldSplitsLikeTheRest(pollId, pick))) continue;
          const reason = `Voting closed; the held votes of ${bucketLabel(bucket)} split like the rest of the poll`;
          const result = await service.release(pollId, bucket, SITE_ACTOR, reason, undefined, {
            pageAtLeastMs: FAST_MEDIAN_MS,
          });
          if (result.outcome === 'done') released += result.action.votes;
        }
        if (closeChecked.size > 100) closeChecked.clear();
        closeChecked.add(pollId);
      }
      return released;
    },

    /** Asks every vote on the poll for a proof of work, or stops asking; logged when it changes. */
    async setChallengeEveryone(
      pollId: number,
      on: boolean,
      actor: string,
      audit?: AuditWrite,
    ): Promise<ChallengeResult> {
      const now = clock.now().toISOString();
      const changed = await db.transaction().execute(async (trx) => {
        const status = await findPollStatus(trx, pollId);
        if (!status) return 'not-found' as const;
        if (status === 'past') return 'voting-over' as const;
        if (!(await setChallengeEveryone(trx, pollId, on))) return null;
        const kind = on ? 'challenge-on' : 'challenge-off';
        const actionId = await insertAction(trx, logEntry(pollId, now, { kind, actor, reason: '' }));
        await audit?.(trx);
        return actionId;
      });
      if (changed === 'not-found' || changed === 'voting-over') return { outcome: changed };
      activePoll.invalidate();
      return { outcome: 'done', on, action: changed === null ? null : await loggedAction(pollId, changed) };
    },
  };
  return service;
}

export type ReviewService = ReturnType<typeof createReviewService>;
