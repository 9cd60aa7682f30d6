/**
 * Vote integrity on the vote path (DESIGN.md, "Vote integrity"): which bucket a vote comes
 * from, whether that bucket is under challenge, and, as votes arrive, the detector's verdict on
 * the buckets they came from. Every instance writes its verdicts to the database and reads the
 * challenged buckets back at most a second old, so a burst split across instances is judged as
 * one bucket.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { votingDayAt } from '../../shared/time.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Site } from '../config.js';
import type { Db } from '../db/connection.js';
import { integrityBlock } from '../http/client-address.js';
import {
  CHALLENGE_QUIET_MS,
  COUNTED_PROOF_LEVEL,
  SURGE_BASELINE_MS,
  SURGE_KEY,
  SURGE_QUIET_MS,
  SURGE_WINDOW_MS,
  WATCH_WINDOW_MS,
  challengeLevel,
  judge,
  judgeSurge,
} from './detector.js';
import {
  challengesOf,
  countedPerOption,
  dayKey,
  deleteKeysBefore,
  purgeIntegrityBefore,
  findBucket,
  votedOnAnotherPoll,
  recentBucketVotes,
  recentPollVotes,
  saveBucket,
} from './integrity.repository.js';

/**
 * A bucket is judged again after 10 of its votes on this instance and at least a second, or
 * 15 s after its last judgement if it voted meanwhile: a loud bucket costs one judgement a
 * second, however many votes a second it sends.
 */
const JUDGE_EVERY_VOTES = 10;
const JUDGE_AT_MOST_EVERY_MS = 1_000;
const JUDGE_EVERY_MS = 15_000;
/** The most recent votes a judgement reads: a 10-minute window of a loud bucket is plenty. */
const JUDGE_READS_VOTES = 2_000;
/** A poll is judged for a surge at most every 5 s per instance, from at most its 5,000 newest votes. */
const SURGE_JUDGE_EVERY_MS = 5_000;
const SURGE_READS_VOTES = 5_000;
/** How stale this instance's copy of the challenged buckets may be. */
const CHALLENGES_MAX_AGE_MS = 1_000;
/** Bucket keys are kept this many days (DESIGN.md), signals 30. */
export const BUCKET_KEY_DAYS = 14;
export const SIGNAL_DAYS = 30;

/** 8 bytes of the keyed hash, in hex. */
const BUCKET_HEX = 16;

export interface Challenge {
  /** The level of a challenge issued now: higher the longer the challenge goes on (detector.ts). */
  level: number;
  /**
   * The least level of a proof that counts the vote: COUNTED_PROOF_LEVEL under a network's
   * challenge, 0 under a surge or staff's challenge of everyone. Below `level` once a challenge
   * grows harder, so a proof of a challenge fetched a moment before still counts.
   */
  least: number;
}

/** The challenge of a surge or of staff's switch: everyone asked, at the easiest level. */
const EASIEST: Challenge = { level: 0, least: 0 };

export interface IntegrityOptions {
  db: Db;
  clock: Clock;
  site: Pick<Site, 'timeZone' | 'votingClosesAt'>;
  /** Where a judgement that failed is logged, at error level. */
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** Told of each judgement that failed (/metrics counts them). */
  onJudgementFailed?: () => void;
  /**
   * Told when a challenge of a network or a surge of the poll begins: staff are e-mailed
   * (services.ts, through the outbox: once per person, poll and hour).
   */
  onTrouble?: (pollId: number, at: number) => Promise<void>;
  /** Tests only: runs between a judgement's read of the bucket and its write. */
  beforeSave?: () => Promise<void>;
}

export function createIntegrity({ db, clock, site, log, onJudgementFailed, onTrouble, beforeSave }: IntegrityOptions) {
  const keys = new Map<string, string>();
  let challenges: { pollId: number; readAt: number; everyone: boolean; buckets: Map<string, number> } | undefined;
  const activity = new Map<string, { votes: number; judgedAt: number }>();
  const pollsJudgedAt = new Map<number, number>();

  const keyOf = async (day: string) => {
    let key = keys.get(day);
    if (key === undefined) {
      key = await dayKey(db, day, randomBytes(32).toString('base64'));
      if (keys.size > 3) keys.clear();
      keys.set(day, key);
    }
    return key;
  };

  const currentChallenges = async (pollId: number, now: Date) => {
    if (!challenges || challenges.pollId !== pollId || now.getTime() - challenges.readAt >= CHALLENGES_MAX_AGE_MS) {
      challenges = { pollId, readAt: now.getTime(), ...(await challengesOf(db, pollId, now)) };
    }
    return challenges;
  };

  async function judgeBucket(pollId: number, bucket: string, now: number): Promise<void> {
    const recent = await recentBucketVotes(db, pollId, bucket, new Date(now - WATCH_WINDOW_MS), JUDGE_READS_VOTES);
    const others = await countedPerOption(db, pollId);
    // Everyone else: the counted votes but this bucket's recent ones.
    for (const vote of recent) {
      const tally = others[vote.optionIndex];
      if (vote.counted && tally !== undefined) others[vote.optionIndex] = tally - 1;
    }
    const verdict = judge(recent, others, now);
    if (verdict.state === 'none') return;
    const previous = await findBucket(db, pollId, bucket);
    await beforeSave?.();
    const stillChallenged =
      previous?.challengedUntil !== undefined && previous.challengedUntil !== null && previous.challengedUntil > now;
    const challenged = verdict.state === 'challenge';
    const since = stillChallenged ? (previous.challengedSince ?? now) : challenged ? now : null;
    await saveBucket(
      db,
      pollId,
      bucket,
      {
        state: challenged || stillChallenged ? 'challenge' : 'watch',
        firstFlaggedAt: previous?.firstFlaggedAt ?? now,
        challengedSince: since,
        challengedUntil: challenged ? now + CHALLENGE_QUIET_MS : stillChallenged ? previous.challengedUntil : null,
        reasons: verdict.reasons.join(','),
      },
      now,
    );
    if (challenged && challenges?.pollId === pollId) challenges.buckets.set(bucket, since ?? now);
    if (challenged && !stillChallenged) await onTrouble?.(pollId, now);
  }

  /** Judges the whole poll for a surge (detector.ts) and writes it like a network's challenge. */
  async function judgePoll(pollId: number, now: number): Promise<void> {
    const since = new Date(now - SURGE_WINDOW_MS - SURGE_BASELINE_MS);
    const recent = await recentPollVotes(db, pollId, since, SURGE_READS_VOTES);
    const { surge, signals } = judgeSurge(recent, await countedPerOption(db, pollId), now);
    if (!surge) return;
    const previous = await findBucket(db, pollId, SURGE_KEY);
    const running =
      previous?.challengedUntil !== undefined && previous.challengedUntil !== null && previous.challengedUntil > now;
    const surgeSince = running ? (previous.challengedSince ?? now) : now;
    await saveBucket(
      db,
      pollId,
      SURGE_KEY,
      {
        state: 'challenge',
        firstFlaggedAt: previous?.firstFlaggedAt ?? now,
        challengedSince: surgeSince,
        challengedUntil: now + SURGE_QUIET_MS,
        reasons: signals.join(','),
      },
      now,
    );
    if (challenges?.pollId === pollId) challenges.buckets.set(SURGE_KEY, surgeSince);
    if (!running) await onTrouble?.(pollId, now);
  }

  /** The poll's surge judgement when it is due on this instance; a failure is logged and counted like a network's. */
  async function observePoll(pollId: number, now: number): Promise<void> {
    const judgedAt = pollsJudgedAt.get(pollId);
    if (judgedAt !== undefined && now - judgedAt < SURGE_JUDGE_EVERY_MS) return;
    if (pollsJudgedAt.size > 100) pollsJudgedAt.clear();
    pollsJudgedAt.set(pollId, now);
    try {
      await judgePoll(pollId, now);
    } catch (error) {
      onJudgementFailed?.();
      log?.error({ err: error, pollId }, 'Judging a poll for a surge failed; its next votes judge it again.');
    }
  }

  return {
    /** The bucket of a client address on the day of `now`: 16 hex characters, no address. */
    async bucketOf(address: string, now = clock.now()): Promise<string> {
      const key = await keyOf(votingDayAt(now, site).date);
      return createHmac('sha256', key).update(integrityBlock(address)).digest('hex').slice(0, BUCKET_HEX);
    },

    /**
     * The challenge votes from `bucket` on `pollId` must meet now, or null when they need none.
     * A network's challenge asks first-time browsers only: one whose voter (`voterId`, given for
     * a cookie older than a first-time one) voted on another poll is never asked for work nor
     * held for someone else's burst (DESIGN.md). It asks for a proof of COUNTED_PROOF_LEVEL at
     * least, which the page sends after the vote when it takes longer than a voter waits.
     * Staff's challenge of everyone asks everyone.
     */
    async challengeFor(pollId: number, bucket: string, now = clock.now(), voterId?: string): Promise<Challenge | null> {
      const { everyone, buckets } = await currentChallenges(pollId, now);
      const since = buckets.get(bucket);
      const asked = since !== undefined && (voterId === undefined || !(await votedOnAnotherPoll(db, voterId, pollId)));
      if (asked) {
        return {
          level: Math.max(COUNTED_PROOF_LEVEL, challengeLevel(since, now.getTime())),
          least: COUNTED_PROOF_LEVEL,
        };
      }
      // During a surge every first-time browser proves work, at the easiest level.
      if (buckets.has(SURGE_KEY) && voterId === undefined) return EASIEST;
      return everyone ? EASIEST : null;
    },

    /**
     * Tells the detector a vote from `bucket` was written. Every few of a bucket's votes (or
     * seconds) it is judged again from the database, where every instance's votes are.
     */
    async observe(pollId: number, bucket: string, now = clock.now().getTime()): Promise<void> {
      await observePoll(pollId, now);
      const key = `${pollId} ${bucket}`;
      const seen = activity.get(key) ?? { votes: 0, judgedAt: now };
      seen.votes += 1;
      activity.set(key, seen);
      const since = now - seen.judgedAt;
      const due = (seen.votes >= JUDGE_EVERY_VOTES && since >= JUDGE_AT_MOST_EVERY_MS) || since >= JUDGE_EVERY_MS;
      if (!due) return;
      seen.votes = 0;
      seen.judgedAt = now;
      if (activity.size > 100_000) {
        for (const [other, { judgedAt }] of activity) if (now - judgedAt > WATCH_WINDOW_MS) activity.delete(other);
      }
      try {
        await judgeBucket(pollId, bucket, now);
      } catch (error) {
        // Advice for the next votes, so the vote that asked stands; but never unseen (issue 37 item 8).
        onJudgementFailed?.();
        log?.error({ err: error, pollId }, 'Judging a network on a poll failed; its next votes judge it again.');
        throw error;
      }
    },

    /** After a staff change of the poll's switch: read the challenges afresh. */
    forgetChallenges(): void {
      challenges = undefined;
    },

    /** Deletes bucket keys older than 14 days, and a poll's signals, held and discounted votes after 30 (housekeeping). */
    async purge(now = clock.now()): Promise<void> {
      const dayBefore = (days: number) => votingDayAt(new Date(now.getTime() - days * 86_400_000), site).date;
      await deleteKeysBefore(db, dayBefore(BUCKET_KEY_DAYS));
      await purgeIntegrityBefore(db, dayBefore(SIGNAL_DAYS));
    },
  };
}

export type Integrity = ReturnType<typeof createIntegrity>;
