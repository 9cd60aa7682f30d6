/** The rules of voting: when a vote counts, and when an e-mail may be attached to it. */
import { HOUR_MS, votingDayAt } from '../../shared/time.js';
import { hitRateLimit } from '../db/rate-limits.js';
import { addressLimit, hitAddressLimit } from '../http/address-limits.js';
import type { CountReport } from '../http/limit-headers.js';
import { findPollStatus } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { BALLOT_SHOWN_MAX_MS, type Ballots } from '../integrity/ballot.js';
import type { Integrity } from '../integrity/integrity.service.js';
import { VoteBatcher, type BatchSettings } from './vote-batcher.js';
import { COUNTED_PROOF_LEVEL } from '../integrity/detector.js';
import type { ReviewService } from '../review/review.service.js';
import { attachEmailToVote, insertVoteBatch, isEmailUsedOnPoll } from './votes.repository.js';
import { findOwnVote } from './held-votes.repository.js';

export type VoteOutcome =
  | 'counted'
  /** Recorded but in no figure until staff release it: the voter is told exactly what a counted vote is told. */
  | 'held'
  | 'poll-not-found'
  | 'poll-not-open'
  | 'voting-closed'
  | 'no-such-option'
  | 'already-voted'
  | 'email-already-voted'
  | 'too-many-emails';

/**
 * A proof sent after its vote: counted (now, or before: nothing changed), or why not. The same
 * whatever other browsers' votes are: only this browser's own vote is looked at.
 */
export type VoteProofOutcome =
  | 'counted'
  | 'poll-not-found'
  | 'poll-not-open'
  | 'voting-closed'
  /** This browser has no held vote on the poll (none, or one staff set aside). */
  | 'no-held-vote'
  /** Not a proof of a challenge for this vote: malformed, expired, used, too cheap, another network's. */
  | 'bad-proof';

export type AttachEmailOutcome =
  'attached' | 'poll-not-found' | 'no-vote' | 'email-already-voted' | 'email-locked' | 'too-many-emails';

export interface Ballot {
  optionIndex: number;
  /** Attached exactly as update-vote would attach it. */
  voterEmail: string | undefined;
  /** The ballot token of the page the vote came from (integrity/ballot.ts). */
  ballot?: string | undefined;
  /** An ALTCHA solution, where the voter's network is challenged. */
  proof?: string | undefined;
}

/** Who is voting: this browser's voter id, and the client address it came from. */
export interface Voter {
  id: string;
  address: string;
  /** Where a per-address limit's count goes (the RateLimit headers of the vote's request). */
  report?: CountReport;
  /** When the voter cookie was issued (ms since the epoch); null when this request issued it. */
  cookieIssuedAt?: number | null;
}

/** Checks a proof of work for a vote on a poll from a bucket, once (integrity/proof-of-work.ts). */
export interface ProofCheck {
  /** `least`: the least level of challenge that counts (integrity.service.ts, Challenge). */
  redeem(proof: string, pollId: number, bucket: string, least: number): Promise<boolean>;
}

/**
 * Attaching an e-mail answers whether the address is on another vote of the poll (the spec's
 * "already voted" rule), so each try is counted per voter: nobody can test address after
 * address. A vote keeps its first e-mail, so an honest voter needs one or two tries.
 */
const EMAIL_TRIES = { max: 5, windowMs: HOUR_MS };

export interface VotesIntegrity {
  integrity: Integrity;
  ballots: Ballots;
  proofs: ProofCheck;
  /** Counts a held vote whose proof came after it, as staff's release moves votes. */
  review: Pick<ReviewService, 'countProvenVote'>;
}

export interface VotesSettings {
  /**
   * E-mail tries per client address and hour, counted in the database for every instance (0:
   * no limit). The voter id is the browser's own cookie, which a script can drop before each
   * try; the address it cannot. An honest browser attaches an e-mail when it subscribes, which
   * is limited per address and hour alike, so the same figure fits both.
   */
  emailTriesPerAddressPerHour: number;
}

/**
 * Group commit: one batch at a time per instance, of every vote that arrived meanwhile, and a
 * vote waiting behind it longer than 5 ms starts a batch of its own. SQLite has one writer
 * anyway. On PostgreSQL, batches that run at once queue on the same tally rows until each
 * commits, so more of them only makes each smaller: with 2 instances, 5,588 and 6,530 votes/s
 * at one batch in flight, 4,468 and 3,934 at four (PostgreSQL's own CPU per vote 82–90 µs
 * against 186–222 µs).
 */
const VOTE_BATCHES: BatchSettings = { maxBatch: 500, maxInFlight: 1, maxWaitMs: 5 };

/**
 * The voter cookie's age in seconds, or null for a first-time browser: one whose cookie came
 * with this vote, or with its ballot (which sets it on the intent to vote, integrity/ballot.ts).
 */
function cookieAgeOf(voter: Voter, now: number): number | null {
  if (voter.cookieIssuedAt === undefined || voter.cookieIssuedAt === null) return null;
  const ageMs = now - voter.cookieIssuedAt;
  return ageMs < BALLOT_SHOWN_MAX_MS ? null : Math.floor(ageMs / 1000);
}

export function createVotesService(
  { db, clock, site, activePoll, voterChoices, keyedHash }: ServiceDeps,
  { emailTriesPerAddressPerHour }: VotesSettings,
  { integrity, ballots, proofs, review }: VotesIntegrity,
) {
  const batcher = new VoteBatcher((votes) => insertVoteBatch(db, votes), VOTE_BATCHES);
  /** Counts a try per voter, then (if the voter may) per client address. */
  const emailTryAllowed = async (voter: Voter) => {
    const now = clock.now();
    const perVoter = { key: `attach:${await keyedHash(voter.id)}`, ...EMAIL_TRIES };
    if (!(await hitRateLimit(db, perVoter, now)).allowed) return false;
    if (emailTriesPerAddressPerHour === 0) return true;
    const perAddress = await addressLimit(keyedHash, {
      kind: 'attach-from',
      address: voter.address,
      max: emailTriesPerAddressPerHour,
      windowMs: HOUR_MS,
    });
    return (await hitAddressLimit(db, perAddress, now, voter.report)).allowed;
  };

  /**
   * Open polls are checked against the active poll as this instance last read it (at most a
   * second ago). A poll another instance made active since is read afresh; a poll it closed less
   * than a second ago may still take a vote, and one it deleted is refused by the database.
   */
  const openPoll = async (pollId: number, now: Date) => {
    let open = await activePoll.get();
    if (open?.id !== pollId) open = await activePoll.get(now.getTime());
    if (open?.id === pollId) return open;
    return (await findPollStatus(db, pollId)) ? ('poll-not-open' as const) : ('poll-not-found' as const);
  };

  return {
    async castVote(pollId: number, voter: Voter, ballot: Ballot): Promise<VoteOutcome> {
      const voterId = voter.id;
      const now = clock.now();
      const open = await openPoll(pollId, now);
      if (typeof open === 'string') return open;
      const day = votingDayAt(now, site);
      if (!day.votingOpen) return 'voting-closed';
      if (ballot.optionIndex >= open.options.length) return 'no-such-option';
      if (ballot.voterEmail !== undefined && !(await emailTryAllowed(voter))) return 'too-many-emails';

      // Integrity: where the vote came from, how it came, and whether its network must prove work.
      const bucket = await integrity.bucketOf(voter.address, now);
      const { pageMs } = ballots.redeem(ballot.ballot, pollId, now.getTime(), voterId);
      const cookieAgeS = cookieAgeOf(voter, now.getTime());
      // Only a browser older than a first-time one may have voted on another poll: no probe for the others.
      const challenge = await integrity.challengeFor(pollId, bucket, now, cookieAgeS === null ? undefined : voterId);
      // A proof is used up when redeemed: not for a vote that is refused anyway (then held, the
      // vote meets the one already cast and is refused as a second vote).
      const proven =
        challenge === null ||
        (ballot.proof !== undefined &&
          !(await voterChoices.of(pollId, voterId)) &&
          (await proofs.redeem(ballot.proof, pollId, bucket, challenge.least)));
      const status = proven ? 'counted' : 'held';

      const outcome = await batcher.add({
        pollId,
        voterId,
        optionIndex: ballot.optionIndex,
        voterEmail: ballot.voterEmail ?? null,
        votedOn: day.date,
        createdAt: now.toISOString(),
        status,
        bucket,
        pageMs,
        cookieAgeS,
      });
      if (outcome === 'poll-gone') {
        activePoll.invalidate();
        return 'poll-not-found';
      }
      if (outcome === 'recorded') {
        // A held vote is this voter's vote all the same: they see that they voted.
        voterChoices.remember(pollId, voterId, ballot.optionIndex, now.getTime(), status === 'held');
        // Judging the bucket is advice for the next votes: a failure to judge (a dropped
        // connection) must not fail this vote, which is written; it is logged and counted
        // (integrity.service.ts), and its bucket's next votes judge again.
        await integrity.observe(pollId, bucket, now.getTime()).catch(() => undefined);
        return status;
      }
      // Either this browser voted already, or the e-mail is on another browser's vote.
      const emailUsed = ballot.voterEmail !== undefined && (await isEmailUsedOnPoll(db, pollId, ballot.voterEmail));
      return emailUsed ? 'email-already-voted' : 'already-voted';
    },

    /**
     * Counts this browser's held vote with the proof of work it asked for, sent after the vote
     * (issue 37 item 2: the page does not keep a teacher waiting for a network's level-2 proof).
     * The proof must be of a challenge for the vote's own network and poll, at the level the
     * vote needs now (COUNTED_PROOF_LEVEL when no challenge applies any more), and is used once
     * on any instance. The vote's tallies move as a staff release of it would move them
     * (review.service.ts, countProvenVote). Twice, or after a release, changes nothing.
     */
    async proveVote(pollId: number, voterId: string | null, proof: string): Promise<VoteProofOutcome> {
      const now = clock.now();
      const open = await openPoll(pollId, now);
      if (typeof open === 'string') return open;
      if (!votingDayAt(now, site).votingOpen) return 'voting-closed';
      const vote = voterId === null ? undefined : await findOwnVote(db, pollId, voterId);
      if (voterId === null || vote === undefined) return 'no-held-vote';
      // Its voter sees the results now: this instance at once (the review service dropped its
      // copy of the poll), the others within a second.
      const counted = (): VoteProofOutcome => {
        voterChoices.remember(pollId, voterId, vote.optionIndex, vote.votedAt);
        return 'counted';
      };
      if (vote.status === 'counted') return counted();
      if (vote.status !== 'held' || vote.bucket === null) return 'no-held-vote';
      const challenge = await integrity.challengeFor(
        pollId,
        vote.bucket,
        now,
        vote.cookieAgeS === null ? undefined : voterId,
      );
      if (!(await proofs.redeem(proof, pollId, vote.bucket, challenge?.least ?? COUNTED_PROOF_LEVEL))) {
        return 'bad-proof';
      }
      if (await review.countProvenVote(pollId, voterId)) return counted();
      // Counted meanwhile by another request or a release, or set aside by staff.
      return (await findOwnVote(db, pollId, voterId))?.status === 'counted' ? counted() : 'no-held-vote';
    },

    async attachEmail(pollId: number, voter: Voter | null, email: string): Promise<AttachEmailOutcome> {
      if (!(await findPollStatus(db, pollId))) return 'poll-not-found';
      if (voter === null) return 'no-vote';
      if (!(await emailTryAllowed(voter))) return 'too-many-emails';
      const outcome = await attachEmailToVote(db, pollId, voter.id, email);
      return outcome === 'email-taken' ? 'email-already-voted' : outcome;
    },

    /** Resolves when every vote received so far is written. */
    drained: () => batcher.drained(),
  };
}

export type VotesService = ReturnType<typeof createVotesService>;
