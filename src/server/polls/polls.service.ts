/** What visitors may see of polls: today's (results only after voting or closing) and past ones. */
import type { Ballot, PastPoll, PollNote, PollResults, SeriesRun } from '../../shared/api.js';
import { BALLOT_SHOWN_MAX_MS, BALLOTS_PER_MINUTE, type Ballots } from '../integrity/ballot.js';
import { hitRateLimit } from '../db/rate-limits.js';
import type { Integrity } from '../integrity/integrity.service.js';
import { votingDayAt } from '../../shared/time.js';
import type { ServiceDeps } from '../service-deps.js';
import { activePollAsSeen, sightKey, sightOf } from './active-poll-visibility.js';
import { toPastPoll, toPollResults, toSeriesRun, type PollRecord } from './poll.js';
import { findPollByNumber, findSeriesRuns, listPastPolls } from './polls.repository.js';
import { findSeriesById } from './series.repository.js';
import { topicsOfPolls } from './poll-topics.repository.js';
import type { Weighted } from '../../shared/weighting.js';
import { createWeightingService } from '../weighting/weighted.service.js';

const NO_POLL = { reading: undefined, sight: '', json: 'null' } as const;

/** What today's poll hands a visitor who may vote: a ballot, and whether their network must prove work. */
export interface BallotBox {
  ballots: Ballots;
  integrity: Integrity;
}

/** The visitor asking for today's poll. */
export interface PollVisitor {
  voterId: string | null;
  emailHint: string | undefined;
}

export function createPollsService(
  { db, clock, site, activePoll, voterChoices }: ServiceDeps,
  box?: BallotBox,
  /** A past poll's staff note (notes/), given by the composition root: polls/ does not import notes/. */
  noteOf?: (pollId: number) => Promise<PollNote | null>,
) {
  /** The answers written for each reading of the active poll, by sight; they go when the reading goes. */
  const serialized = new WeakMap<PollRecord, Map<string, string>>();
  /** The earlier runs of the active poll's question, read once per reading of the poll. */
  const earlierRuns = new WeakMap<PollRecord, Promise<SeriesRun[]>>();
  const weighting = createWeightingService({ db, clock });
  /** Today's weighted line once voting has closed, read once per reading of the poll. */
  const closedLines = new WeakMap<PollRecord, Promise<Weighted>>();

  function closedLineOf(poll: PollRecord): Promise<Weighted> {
    let line = closedLines.get(poll);
    if (!line) {
      line = weighting.ofPoll(poll);
      closedLines.set(poll, line);
      line.catch(() => closedLines.delete(poll));
    }
    return line;
  }

  /**
   * The other runs of `poll`'s series that anyone may see, oldest first: past ones, and today's
   * once voting has closed (no peeking before).
   */
  async function otherRuns(poll: PollRecord): Promise<SeriesRun[]> {
    if (poll.seriesId === null) return [];
    const todayClosed = !votingDayAt(clock.now(), site).votingOpen;
    return (await findSeriesRuns(db, poll.seriesId))
      .filter((run) => run.id !== poll.id && (run.status === 'past' || todayClosed))
      .map(toSeriesRun);
  }

  function earlierRunsOf(poll: PollRecord): Promise<SeriesRun[]> {
    let runs = earlierRuns.get(poll);
    if (!runs) {
      runs = poll.seriesId === null ? Promise.resolve([]) : otherRuns(poll);
      earlierRuns.set(poll, runs);
      runs.catch(() => earlierRuns.delete(poll));
    }
    return runs;
  }

  async function activePollView(visitor: {
    voterId: string | null;
    emailHint: string | undefined;
  }): Promise<{ reading: PollRecord | undefined; sight: string; json: string }> {
    let poll = await activePoll.get();
    if (!poll) return NO_POLL;
    const ownVote = visitor.voterId === null ? undefined : await voterChoices.of(poll.id, visitor.voterId);
    // A voter always sees their own vote: read again if the copy might predate it.
    if (ownVote) poll = await activePoll.get(ownVote.votedAt);
    if (!poll) return NO_POLL;
    const sight = sightOf({ ownVote, emailHint: visitor.emailHint }, votingDayAt(clock.now(), site));
    let answers = serialized.get(poll);
    if (!answers) serialized.set(poll, (answers = new Map<string, string>()));
    const key = sightKey(sight);
    let json = answers.get(key);
    if (json === undefined) {
      const weighted = sight.votingOpen ? undefined : await closedLineOf(poll);
      json = JSON.stringify(activePollAsSeen(poll, sight, await earlierRunsOf(poll), weighted));
      answers.set(key, json);
    }
    return { reading: poll, sight: key, json };
  }

  return {
    /**
     * Today's poll as this visitor may see it (active-poll-visibility.ts), as JSON. The hottest
     * path of the site: the poll comes from the shared copy (active-poll-cache.ts), the
     * visitor's vote from memory once seen, and each answer is written once per reading of
     * the poll and sight, then reused.
     */
    async activePollJson(visitor: PollVisitor): Promise<string> {
      return (await activePollView(visitor)).json;
    },

    /**
     * A ballot for a vote on today's poll `pollId` by the browser of `voter` from the client at
     * `address`, whose page has shown the question for `shownMs` (capped at BALLOT_SHOWN_MAX_MS):
     * asked for on the first intent to vote, not with every read of the poll. Null when `pollId`
     * is not open for voting. Each is counted against its network's BALLOTS_PER_MINUTE
     * (integrity/ballot.ts): past it, the ballot reads as none.
     */
    async ballotFor(
      pollId: number,
      address: string,
      shownMs: number,
      voter: { id: string; fresh: boolean },
    ): Promise<Ballot | null> {
      const now = clock.now();
      let poll = await activePoll.get();
      if (poll?.id !== pollId) poll = await activePoll.get(now.getTime());
      if (!box || poll?.id !== pollId || !votingDayAt(now, site).votingOpen) return null;
      const bucket = await box.integrity.bucketOf(address, now);
      const [challenge, rate] = await Promise.all([
        box.integrity.challengeFor(pollId, bucket, now, voter.fresh ? undefined : voter.id),
        hitRateLimit(db, { key: `ballots:${pollId}:${bucket}`, max: BALLOTS_PER_MINUTE, windowMs: 60_000 }, now),
      ]);
      const shownAt = now.getTime() - Math.min(Math.max(0, shownMs), BALLOT_SHOWN_MAX_MS);
      return { token: box.ballots.issue(pollId, shownAt, voter.id, rate.allowed), proofOfWork: challenge !== null };
    },

    /**
     * The same answer, with the reading of today's poll it comes from and the visitor's sight:
     * what server-drawn pages are cached by (pages/ssr-pages.ts).
     */
    activePollView,

    async pastPolls(): Promise<PastPoll[]> {
      const polls = await listPastPolls(db);
      const topics = await topicsOfPolls(
        db,
        polls.map((poll) => poll.id),
      );
      return polls.map((poll) => ({ ...toPastPoll(poll), topics: topics.get(poll.id) ?? [] }));
    },

    /** Final results of a past poll. Today's and scheduled polls are not past: undefined. */
    async pastPollResults(pollNumber: number): Promise<PollResults | undefined> {
      const poll = await findPollByNumber(db, pollNumber);
      if (!poll || poll.status !== 'past') return undefined;
      const runs = await otherRuns(poll);
      const results = {
        ...toPollResults(poll, runs, await weighting.ofPoll(poll)),
        topics: (await topicsOfPolls(db, [poll.id])).get(poll.id) ?? [],
        note: (await noteOf?.(poll.id)) ?? null,
      };
      const series = runs.length > 0 && poll.seriesId !== null ? await findSeriesById(db, poll.seriesId) : undefined;
      return series ? { ...results, tracker: { slug: series.slug, name: series.name } } : results;
    },
  };
}

export type PollsService = ReturnType<typeof createPollsService>;
