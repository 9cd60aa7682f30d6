/**
 * The integrity report's figures, worked out from what the repository read: pure functions, so
 * each rule (a network's label, its top option against everyone else, the marks on the chart,
 * a burst's preview) is stated once and tested without a database.
 */
import type {
  FlaggedBurst,
  IntegrityAction,
  IntegrityBucket,
  IntegrityMark,
  IntegrityMinute,
  VoteStatus,
} from '../../shared/api.js';
import { resultItems } from '../../shared/results.js';
import { SURGE_WINDOW_MS, WATCH_WINDOW_MS } from '../integrity/detector.js';
import type {
  BucketOptionCount,
  BucketStateRow,
  BucketTotals,
  MinuteCount,
  RangeCounts,
} from './review-figures.repository.js';
import type { ActionRow } from './review.repository.js';

/** The networks the report lists one by one; the rest are summed. */
export const INTEGRITY_TOP_BUCKETS = 20;

/**
 * How far before a network was first flagged its burst is taken to start: the detector flags a
 * network once it has seen enough votes in its widest window (watch's), so the votes that made
 * it flag the network are up to that long before.
 */
export const BURST_LOOKBACK_MS = WATCH_WINDOW_MS;

/**
 * A short name for a network, for people: six of its code's hex digits. The code is already a
 * keyed hash of an address block, so the label says nothing about any address either.
 */
export const bucketLabel = (bucket: string) => `NET-${bucket.slice(0, 6).toUpperCase()}`;

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

/** Minutes with their votes per option, by status, oldest first. */
export function minutesOf(rows: MinuteCount[], optionCount: number): IntegrityMinute[] {
  const byMinute = new Map<string, IntegrityMinute>();
  for (const row of rows) {
    let minute = byMinute.get(row.at);
    if (!minute) {
      const zeros = () => Array.from({ length: optionCount }, () => 0);
      minute = { at: row.at, counted: zeros(), held: zeros(), discounted: zeros() };
      byMinute.set(row.at, minute);
    }
    const counts = minute[row.status];
    if (row.optionIndex < counts.length) counts[row.optionIndex] = (counts[row.optionIndex] ?? 0) + row.votes;
  }
  return [...byMinute.values()].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/**
 * When each flagged network was watched and challenged, and when staff challenged everyone
 * (from the log). A challenge still on is marked until `now`.
 */
export function marksOf(states: BucketStateRow[], log: ActionRow[], now: string): IntegrityMark[] {
  const marks: IntegrityMark[] = [];
  for (const row of states) {
    const label = bucketLabel(row.bucket);
    const watchEnd = row.challengedSince ?? row.updatedAt;
    if (watchEnd > row.firstFlaggedAt) marks.push({ state: 'watch', label, from: row.firstFlaggedAt, to: watchEnd });
    if (row.challengedSince !== null) {
      const end = row.challengedUntil ?? (row.state === 'challenge' ? now : row.updatedAt);
      marks.push({ state: 'challenge', label, from: row.challengedSince, to: earlier(end, now) });
    }
  }
  let since: string | null = null;
  for (const action of [...log].sort((a, b) => a.id - b.id)) {
    if (action.kind === 'challenge-on') since ??= action.createdAt;
    if (action.kind === 'challenge-off' && since !== null) {
      marks.push({ state: 'challenge', label: null, from: since, to: action.createdAt });
      since = null;
    }
  }
  if (since !== null) marks.push({ state: 'challenge', label: null, from: since, to: now });
  return marks;
}

/** Where to look for a flagged network's burst: from before it was flagged to its last flagged vote. */
export function burstWindow(row: BucketStateRow, now: string): { from: string; to: string } {
  const from = new Date(new Date(row.firstFlaggedAt).getTime() - BURST_LOOKBACK_MS).toISOString();
  const challengeEnd = row.challengedUntil === null ? row.updatedAt : earlier(row.challengedUntil, now);
  return { from, to: later(row.updatedAt, challengeEnd) };
}

const emptyStatusCounts = (): Record<VoteStatus, number> => ({ counted: 0, held: 0, discounted: 0 });

/** A range's votes by status. */
export function statusTotals(range: RangeCounts): Record<VoteStatus, number> {
  const votes = emptyStatusCounts();
  for (const { status, votes: n } of range.counts) votes[status] += n;
  return votes;
}

/**
 * The poll's surge as staff see it: from a window's length before its first flag (the votes
 * that made it flag the poll) to its last judgement as a surge, whether it is still on, and its
 * signals. These are the times a discount by signal takes to set it aside.
 */
export function surgeOf(
  row: BucketStateRow,
  now: string,
): { from: string; to: string; on: boolean; signals: string[] } {
  const from = new Date(new Date(row.challengedSince ?? row.firstFlaggedAt).getTime() - SURGE_WINDOW_MS).toISOString();
  return {
    from,
    to: row.updatedAt,
    on: row.challengedUntil !== null && row.challengedUntil > now,
    signals: row.reasons,
  };
}

/**
 * A flagged network's burst: its votes in the window, tightened to its first and last, and the
 * results without its counted ones. Undefined when the window holds none of its votes (their
 * network was emptied with the other signals after 30 days).
 */
export function burstOf(
  row: BucketStateRow,
  range: RangeCounts,
  options: readonly string[],
  counted: readonly number[],
): FlaggedBurst | undefined {
  if (range.firstVoteAt === null || range.lastVoteAt === null) return undefined;
  const votes = emptyStatusCounts();
  const without = [...counted];
  for (const { optionIndex, status, votes: n } of range.counts) {
    votes[status] += n;
    if (status === 'counted' && optionIndex < without.length) without[optionIndex] = (without[optionIndex] ?? 0) - n;
  }
  return {
    bucket: row.bucket,
    label: bucketLabel(row.bucket),
    state: row.state,
    reasons: row.reasons,
    from: range.firstVoteAt,
    to: range.lastVoteAt,
    votes,
    preview: {
      results: resultItems(options, without),
      totalVotes: without.reduce((sum, n) => sum + n, 0),
    },
  };
}

/**
 * A listed network: its totals, its busiest minute, its favourite option against everyone
 * else's counted votes, its median page-to-vote time and its state.
 */
export function bucketOf(
  totals: BucketTotals,
  details: {
    optionCounts: BucketOptionCount[];
    counted: readonly number[];
    peak: number;
    medianPageMs: number | null;
    state: BucketStateRow | undefined;
  },
): IntegrityBucket {
  const all = details.counted.map(() => 0);
  const countedHere = details.counted.map(() => 0);
  for (const { optionIndex, status, votes } of details.optionCounts) {
    if (optionIndex >= all.length) continue;
    all[optionIndex] = (all[optionIndex] ?? 0) + votes;
    if (status === 'counted') countedHere[optionIndex] = (countedHere[optionIndex] ?? 0) + votes;
  }
  let top: number | null = null;
  for (const [index, votes] of all.entries()) if (votes > 0 && (top === null || votes > (all[top] ?? 0))) top = index;
  const elsewhere = details.counted.map((n, i) => n - (countedHere[i] ?? 0));
  const elsewhereTotal = elsewhere.reduce((a, b) => a + b, 0);
  const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
  return {
    bucket: totals.bucket,
    label: bucketLabel(totals.bucket),
    votes: totals.votes,
    firstVoteAt: totals.firstVoteAt,
    lastVoteAt: totals.lastVoteAt,
    peakPerMinute: details.peak,
    topOption:
      top === null
        ? null
        : {
            index: top,
            share: share(all[top] ?? 0, totals.votes),
            shareElsewhere: share(elsewhere[top] ?? 0, elsewhereTotal),
          },
    medianPageMs: details.medianPageMs,
    withoutBallotShare: share(totals.withoutBallot, totals.votes),
    freshCookieShare: share(totals.freshCookie, totals.votes),
    held: totals.held,
    discounted: totals.discounted,
    state: details.state?.state ?? null,
  };
}

/** An entry of the log as staff read it; `log` is the whole log, for who undid what. */
export function toIntegrityAction(action: ActionRow, log: ActionRow[]): IntegrityAction {
  const undoneBy = log.find((other) => other.kind === 'restore' && other.undoesId === action.id);
  return {
    id: action.id,
    kind: action.kind,
    bucket: action.bucket,
    label: action.bucket === null ? null : bucketLabel(action.bucket),
    from: action.from,
    to: action.to,
    reason: action.reason,
    votes: action.votes,
    actor: action.actor,
    undoesId: action.undoesId,
    undoneById: undoneBy?.id ?? null,
    createdAt: action.createdAt,
  };
}
