/**
 * The rules that decide a bucket's state on a poll, as a pure function of its recent votes.
 * A bucket is the keyed hash of a /24 (IPv4) or /48 (IPv6): a school, a household, a phone
 * carrier's block, or a script.
 *
 * DESIGN.md: a school behind one address is normal traffic and is never challenged or held for
 * volume alone. So volume only puts a bucket on *watch* (staff see it; voters see nothing), and a
 * *challenge* (votes need a proof of work, or are held) takes volume plus anomalies that a room
 * of teachers does not produce:
 *
 * - skew: one option has ≥ 90% of the bucket's votes where it has ≤ 70% of everyone else's.
 *   A staff room agrees more than the country does, but 85/15 is a strong opinion; 97/3 against
 *   a 50/50 nation is a loop pressing one button.
 * - fast: the median time from the page to the vote is under 1.5 s: too quick to read a
 *   question and its options.
 * - no ballot: ≥ 25% of votes came back without the ballot of a served page (our pages and app
 *   always send it), so they were not cast from a page.
 * - regular: the gaps between votes are as even as a loop's (their coefficient of variation is
 *   under 0.2, where people arriving on their own give about 1).
 *
 * Fresh cookies are no anomaly: a school's first visitors all have one. But a careful stuffer
 * avoids every anomaly, and then only volume tells it from a school (DESIGN.md: "a ceiling on
 * first-time votes per network"). So past FIRST_TIME_CEILING first-time votes in 10 minutes the
 * network is challenged too, and a challenge only ever asks first-time browsers (a browser that
 * voted on an earlier poll is never asked nor held for someone else's burst: integrity.service.ts):
 * a first-time teacher with scripts solves one proof, a script pays for every vote or is held.
 */
import { median } from '../../shared/median.js';

/** Volume that puts a bucket on watch: 30 votes in 10 minutes. A school's morning does this. */
export const WATCH_VOTES = 30;
export const WATCH_WINDOW_MS = 10 * 60_000;

/**
 * A burst: 90 votes in any 60 s, half again a 120-teacher staff meeting's peak minute (which
 * averages 60), with at least one anomaly.
 */
export const BURST_VOTES = 90;
export const BURST_WINDOW_MS = 60_000;
export const BURST_ANOMALIES = 1;

/** Sustained: 40 votes in 5 minutes with at least two anomalies. */
export const SUSTAINED_VOTES = 40;
export const SUSTAINED_WINDOW_MS = 5 * 60_000;
export const SUSTAINED_ANOMALIES = 2;

/**
 * First-time votes (a voter cookie issued with the vote or its ballot) per network in 10
 * minutes past which its first-time votes need a proof of work. With a judgement every 10 votes
 * and challenges read at most a second old, a flood at 10 votes a second has at most about 110
 * counted.
 */
export const FIRST_TIME_CEILING = 90;

/**
 * A held block "matches the rest of the poll" when each option's share of it is within this
 * many points of its share of everyone else's counted votes, or within 3 standard errors of a
 * block that size drawn from them (a small block of honest votes wanders by chance).
 */
export const SPLIT_MATCH_POINTS = 0.1;
export const SPLIT_MATCH_ERRORS = 3;

/**
 * Whether a block of votes per option (a network's held votes) splits like `rest` (everyone
 * else's counted votes per option). Nothing to compare with (no other counted votes, or an empty
 * block) is no match: the block stays for staff.
 */
export function splitMatches(block: readonly number[], rest: readonly number[]): boolean {
  const blockTotal = block.reduce((sum, n) => sum + n, 0);
  const restTotal = rest.reduce((sum, n) => sum + n, 0);
  if (blockTotal === 0 || restTotal === 0) return false;
  const options = Math.max(block.length, rest.length);
  for (let option = 0; option < options; option += 1) {
    const expected = (rest[option] ?? 0) / restTotal;
    const seen = (block[option] ?? 0) / blockTotal;
    const error = Math.sqrt((expected * (1 - expected)) / blockTotal);
    if (Math.abs(seen - expected) > Math.max(SPLIT_MATCH_POINTS, SPLIT_MATCH_ERRORS * error)) return false;
  }
  return true;
}

export const SKEW_BUCKET_SHARE = 0.9;
export const SKEW_OVERALL_SHARE = 0.7;
/** Skew is only judged against at least this many votes from everyone else. */
export const SKEW_MIN_OTHERS = 30;
export const FAST_MEDIAN_MS = 1_500;
export const NO_BALLOT_SHARE = 0.25;
export const REGULAR_MAX_VARIATION = 0.2;
/** Regularity needs this many gaps to mean anything. */
export const REGULAR_MIN_GAPS = 20;

/** A challenge lasts until the bucket has looked like this for none of the last 30 minutes. */
export const CHALLENGE_QUIET_MS = 30 * 60_000;

/** Each 10 minutes a challenge goes on, its proof of work is harder, up to level 3. */
export const LEVEL_STEP_MS = 10 * 60_000;
export const MAX_LEVEL = 3;

/**
 * The least level a proof must have to count a first-time vote from a network under challenge
 * (issue 37 item 2): 4 times level 0's work, past 1 CPU-second a vote for a script on one core
 * (docs/performance.md). A low-end phone takes about 6 s at it, so the voter never waits for it:
 * the page sends the vote after 1.5 s without it (held) and the proof when solved, which counts
 * the vote then (votes.service.ts, proveVote). A surge's and staff's challenge of everyone stay
 * at level 0: they ask returning and first-time browsers of every network alike.
 */
export const COUNTED_PROOF_LEVEL = 2;

export type Anomaly = 'skew' | 'fast' | 'no-ballot' | 'regular';

/** One recent vote of the bucket, as the detector reads it. */
export interface RecentVote {
  optionIndex: number;
  /** Milliseconds since the epoch. */
  at: number;
  /** From the ballot; null without a valid one. */
  pageMs: number | null;
  /** A first-time browser's vote (its cookie came with the vote or its ballot). */
  firstTime?: boolean;
}

export interface Verdict {
  state: 'none' | 'watch' | 'challenge';
  /** What was seen: volume words ('volume', 'burst') and the anomalies. */
  reasons: string[];
}

/** The anomalies in a set of votes; `others` is every other bucket's counted votes per option. */
export function anomaliesOf(votes: readonly RecentVote[], others: readonly number[]): Anomaly[] {
  const found: Anomaly[] = [];
  if (votes.length === 0) return found;
  const perOption = new Map<number, number>();
  for (const vote of votes) perOption.set(vote.optionIndex, (perOption.get(vote.optionIndex) ?? 0) + 1);
  const [topOption, topVotes] = [...perOption].reduce((a, b) => (b[1] > a[1] ? b : a));
  const othersTotal = others.reduce((sum, n) => sum + n, 0);
  if (
    othersTotal >= SKEW_MIN_OTHERS &&
    topVotes / votes.length >= SKEW_BUCKET_SHARE &&
    (others[topOption] ?? 0) / othersTotal <= SKEW_OVERALL_SHARE
  ) {
    found.push('skew');
  }
  const timed = votes.flatMap((vote) => (vote.pageMs === null ? [] : [vote.pageMs]));
  if (timed.length > 0 && median(timed) < FAST_MEDIAN_MS) found.push('fast');
  if ((votes.length - timed.length) / votes.length >= NO_BALLOT_SHARE) found.push('no-ballot');
  const times = votes.map((vote) => vote.at).sort((a, b) => a - b);
  const gaps = times.slice(1).map((time, i) => time - (times[i] ?? time));
  if (gaps.length >= REGULAR_MIN_GAPS) {
    const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    const sd = Math.sqrt(gaps.reduce((sum, gap) => sum + (gap - mean) ** 2, 0) / gaps.length);
    if (mean > 0 && sd / mean < REGULAR_MAX_VARIATION) found.push('regular');
  }
  return found;
}

/**
 * The bucket's state at `now`, from its votes of the last 10 minutes (any status: held votes
 * are part of a burst too) and everyone else's counted votes per option.
 */
export function judge(votes: readonly RecentVote[], others: readonly number[], now: number): Verdict {
  const within = (ms: number) => votes.filter((vote) => vote.at > now - ms && vote.at <= now);
  const burst = within(BURST_WINDOW_MS);
  const sustained = within(SUSTAINED_WINDOW_MS);
  const watched = within(WATCH_WINDOW_MS);
  if (burst.length >= BURST_VOTES) {
    const anomalies = anomaliesOf(burst, others);
    if (anomalies.length >= BURST_ANOMALIES) return { state: 'challenge', reasons: ['burst', ...anomalies] };
  }
  if (sustained.length >= SUSTAINED_VOTES) {
    const anomalies = anomaliesOf(sustained, others);
    if (anomalies.length >= SUSTAINED_ANOMALIES) return { state: 'challenge', reasons: ['volume', ...anomalies] };
  }
  if (watched.filter((vote) => vote.firstTime === true).length >= FIRST_TIME_CEILING) {
    return { state: 'challenge', reasons: ['first-time', ...anomaliesOf(watched, others)] };
  }
  if (watched.length >= WATCH_VOTES) return { state: 'watch', reasons: ['volume', ...anomaliesOf(watched, others)] };
  return { state: 'none', reasons: [] };
}

/** How hard the proof of work is, from how long the challenge has gone on. */
export function challengeLevel(challengedSince: number, now: number): number {
  return Math.min(MAX_LEVEL, Math.max(0, Math.floor((now - challengedSince) / LEVEL_STEP_MS)));
}

/**
 * A surge: the whole poll, not one network, suddenly looks unlike itself (issue 37 item 3). A
 * stuffer with a proxy pool sends one vote per network, so no network's rules above ever fire;
 * but the poll's votes of the last 2 minutes then differ from its own baseline (its counted votes
 * before them) in ways a morning rush of teachers does not:
 *
 * - first-time: ≥ 80% of the window's votes came from first-time browsers;
 * - no page: ≥ 25% came without the ballot of a served page;
 * - split: one option's share of the window is 20 points or more above its share of the baseline.
 *
 * A surge needs volume (60 votes in the window, at 3 times the baseline's rate per minute), votes
 * from at least 30 networks (one network's burst is the rules above: a school is never a surge),
 * and two of those three signals. During a surge first-time browsers prove work (a returning
 * browser is never asked), and staff can set the surge aside in one action (review.service.ts).
 */
export const SURGE_KEY = 'surge';
export const SURGE_WINDOW_MS = 2 * 60_000;
export const SURGE_BASELINE_MS = 10 * 60_000;
export const SURGE_MIN_VOTES = 60;
export const SURGE_MIN_NETWORKS = 30;
export const SURGE_RATE_FACTOR = 3;
export const SURGE_FIRST_TIME_SHARE = 0.8;
export const SURGE_NO_PAGE_SHARE = 0.25;
export const SURGE_SPLIT_SHIFT = 0.2;
/** The baseline split is only judged against at least this many counted votes. */
export const SURGE_MIN_BASELINE = 30;
export const SURGE_SIGNALS = 2;
/** A surge lasts until the poll has looked like one for none of the last 10 minutes. */
export const SURGE_QUIET_MS = 10 * 60_000;

export type SurgeSignal = 'first-time' | 'no-page' | 'split';

/** One recent vote of the poll, as the surge rule reads it. */
export interface PollVote extends RecentVote {
  bucket: string | null;
}

/**
 * Whether the poll is in a surge at `now`, from its recent votes (those of the window and the
 * baseline before it) and its counted votes per option (`counted`, the tallies, including the
 * window's counted ones).
 */
export function judgeSurge(
  recent: readonly (PollVote & { counted: boolean })[],
  counted: readonly number[],
  now: number,
): { surge: boolean; signals: SurgeSignal[] } {
  const windowStart = now - SURGE_WINDOW_MS;
  const window = recent.filter((vote) => vote.at > windowStart && vote.at <= now);
  const before = recent.filter((vote) => vote.at > windowStart - SURGE_BASELINE_MS && vote.at <= windowStart);
  const none = { surge: false, signals: [] };
  if (window.length < SURGE_MIN_VOTES) return none;
  if (new Set(window.map((vote) => vote.bucket)).size < SURGE_MIN_NETWORKS) return none;
  const perMinute = (votes: number, ms: number) => votes / (ms / 60_000);
  if (perMinute(window.length, SURGE_WINDOW_MS) < SURGE_RATE_FACTOR * perMinute(before.length, SURGE_BASELINE_MS)) {
    return none;
  }
  const signals: SurgeSignal[] = [];
  const share = (test: (vote: PollVote) => boolean) => window.filter(test).length / window.length;
  if (share((vote) => vote.firstTime === true) >= SURGE_FIRST_TIME_SHARE) signals.push('first-time');
  if (share((vote) => vote.pageMs === null) >= SURGE_NO_PAGE_SHARE) signals.push('no-page');
  const baseline = [...counted];
  for (const vote of window) {
    const tally = baseline[vote.optionIndex];
    if (vote.counted && tally !== undefined) baseline[vote.optionIndex] = tally - 1;
  }
  const baselineTotal = baseline.reduce((sum, n) => sum + n, 0);
  if (baselineTotal >= SURGE_MIN_BASELINE) {
    const shifted = baseline.some(
      (n, option) => share((vote) => vote.optionIndex === option) - n / baselineTotal >= SURGE_SPLIT_SHIFT,
    );
    if (shifted) signals.push('split');
  }
  return { surge: signals.length >= SURGE_SIGNALS, signals };
}
