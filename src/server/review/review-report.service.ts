/**
 * What staff see of a poll's votes: the integrity report, read (review-figures.repository.ts)
 * and worked out (review-report.ts) in one place. What they do about them is review.service.ts.
 */
import type { IntegrityReport } from '../../shared/api.js';
import { localDateAt } from '../../shared/time.js';
import { SURGE_KEY } from '../integrity/detector.js';
import { resultsOf, toAdminPoll } from '../polls/poll.js';
import { findPollById } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import {
  bucketOptionCounts,
  bucketPeaks,
  bucketSpread,
  bucketStates,
  challengesEveryone,
  medianPageMs,
  topBuckets,
  votesByStatus,
  votesInRange,
  votesPerMinute,
} from './review-figures.repository.js';
import {
  bucketOf,
  burstOf,
  burstWindow,
  INTEGRITY_TOP_BUCKETS,
  marksOf,
  minutesOf,
  statusTotals,
  surgeOf,
  toIntegrityAction,
} from './review-report.js';
import { actionsOf } from './review.repository.js';

/** Everything the integrity view shows of a poll; undefined for an unknown poll. */
export async function integrityReport(
  { db, clock, site }: Pick<ServiceDeps, 'db' | 'clock' | 'site'>,
  pollId: number,
): Promise<IntegrityReport | undefined> {
  const poll = await findPollById(db, pollId);
  if (!poll) return undefined;
  const now = clock.now().toISOString();
  const options = poll.options.map((option) => option.label);
  const counted = poll.options.map((option) => option.votes);
  const [minutes, votes, everyone, spread, top, allStates, log] = await Promise.all([
    votesPerMinute(db, pollId),
    votesByStatus(db, pollId),
    challengesEveryone(db, pollId),
    bucketSpread(db, pollId),
    topBuckets(db, pollId, INTEGRITY_TOP_BUCKETS),
    bucketStates(db, pollId),
    actionsOf(db, pollId),
  ]);
  // The poll's surge is kept as a network of its own name (integrity/detector.ts).
  const states = allStates.filter((row) => row.bucket !== SURGE_KEY);
  const surgeRow = allStates.find((row) => row.bucket === SURGE_KEY);
  const surge = surgeRow && surgeOf(surgeRow, now);
  const [surgeVotes, surgeFirstTime] = surge
    ? await Promise.all([votesInRange(db, pollId, surge), votesInRange(db, pollId, { ...surge, signal: 'first-time' })])
    : [];
  const listed = top.map((bucket) => bucket.bucket);
  const [optionCounts, peaks, medians, ranges] = await Promise.all([
    bucketOptionCounts(db, pollId, listed),
    bucketPeaks(db, pollId, listed),
    Promise.all(top.map((b) => medianPageMs(db, pollId, b.bucket, b.votes - b.withoutBallot))),
    Promise.all(states.map((row) => votesInRange(db, pollId, { bucket: row.bucket, ...burstWindow(row, now) }))),
  ]);
  const stateOf = new Map(states.map((row) => [row.bucket, row]));
  return {
    pollId: poll.id,
    pollNumber: poll.pollNumber,
    question: poll.question,
    options,
    status: toAdminPoll(poll, localDateAt(clock.now(), site.timeZone)).status,
    votes,
    results: resultsOf(poll),
    challengeEveryone: everyone,
    minutes: minutesOf(minutes, options.length),
    marks: marksOf(states, log, now),
    buckets: top.map((totals, i) =>
      bucketOf(totals, {
        optionCounts: optionCounts.filter((row) => row.bucket === totals.bucket),
        counted,
        peak: peaks.get(totals.bucket) ?? 0,
        medianPageMs: medians[i] ?? null,
        state: stateOf.get(totals.bucket),
      }),
    ),
    otherBuckets: {
      buckets: spread.buckets - top.length,
      votes: spread.votesWithBucket - top.reduce((sum, bucket) => sum + bucket.votes, 0),
    },
    votesWithoutBucket: spread.votesWithoutBucket,
    bursts: states.flatMap((row, i) => {
      const range = ranges[i];
      const burst = range && burstOf(row, range, options, counted);
      return burst ? [burst] : [];
    }),
    surge:
      surge && surgeVotes && surgeFirstTime
        ? { ...surge, votes: statusTotals(surgeVotes), firstTimeVotes: statusTotals(surgeFirstTime) }
        : null,
    log: log.map((action) => toIntegrityAction(action, log)),
  };
}
