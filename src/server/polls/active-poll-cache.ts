/**
 * Today's poll is read by every open page every 30 seconds, and it is the same for everyone.
 * This keeps it in memory, tallies included, for at most a second, so reading it costs no
 * query at all most of the time, however many votes it has. Each instance keeps its own copy;
 * across instances results can lag by up to that second.
 *
 * One rule is absolute: a visitor who has just voted sees their own vote. When the copy may
 * have been read before that vote was committed, it is read again.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import type { PollRecord, VoterChoice } from './poll.js';
import { findActivePoll } from './polls.repository.js';

/** How long one reading of the active poll serves everyone. */
export const ACTIVE_POLL_MAX_AGE_MS = 1000;

/**
 * A vote is stamped before it is committed, and instances' clocks differ a little: a copy read
 * less than this long after a vote's stamp might not include it.
 */
const COMMIT_AND_CLOCK_MARGIN_MS = 2000;

interface Snapshot {
  poll: PollRecord | undefined;
  /** App-clock time when the reading started: votes committed before it are in it. */
  readFrom: number;
  /** Monotonic time after which the copy is too old. */
  expiresAt: number;
}

export class ActivePollCache {
  #snapshot: Snapshot | undefined;
  #reading: Promise<Snapshot> | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly maxAgeMs = ACTIVE_POLL_MAX_AGE_MS,
    /** Monotonic milliseconds, for ageing the copy; tests pass their own. */
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {}

  /**
   * The active poll with its tallies. `votedAt` is when the visitor asking voted, if they did:
   * a copy that might predate that vote is not used.
   */
  async get(votedAt?: number): Promise<PollRecord | undefined> {
    const snapshot = this.#snapshot;
    const fresh = snapshot !== undefined && this.monotonicNow() < snapshot.expiresAt;
    const includesVote = votedAt === undefined || (snapshot?.readFrom ?? 0) > votedAt + COMMIT_AND_CLOCK_MARGIN_MS;
    if (fresh && includesVote) return snapshot.poll;
    // A reading already under way started before this request, so it may miss a vote just made.
    return (await (votedAt === undefined ? (this.#reading ?? this.#read()) : this.#read())).poll;
  }

  /** Forget the copy (after this instance changes the active poll). */
  invalidate(): void {
    this.#snapshot = undefined;
  }

  #read(): Promise<Snapshot> {
    const readFrom = this.clock.now().getTime();
    const reading = findActivePoll(this.db)
      .then((poll) => {
        const snapshot = { poll, readFrom, expiresAt: this.monotonicNow() + this.maxAgeMs };
        if (!this.#snapshot || this.#snapshot.readFrom <= readFrom) this.#snapshot = snapshot;
        return snapshot;
      })
      .finally(() => {
        if (this.#reading === reading) this.#reading = undefined;
      });
    this.#reading = reading;
    return reading;
  }
}

/**
 * Which option each recent voter chose. A vote is final, so a remembered choice can never be
 * wrong. "Has not voted" can turn wrong the moment the voter votes, so it is remembered only
 * when every vote passes through this process (`soleWriter`: SQLite, which one instance serves),
 * and a vote this process counts replaces it at once. On PostgreSQL another instance may count
 * the vote, so there absence is looked up every time.
 * Votes are the votes module's: it remembers each vote it counts, and passes the lookup for
 * the others (a vote cast on another instance, or before a restart).
 */
const keyOf = (pollId: number, voterId: string) => `${pollId}:${voterId}`;

export class VoterChoices {
  /** By poll and voter: the choice, or null for a voter known not to have voted (sole writer only). */
  readonly #choices = new Map<string, VoterChoice | null>();
  readonly #capacity: number;
  readonly #soleWriter: boolean;

  constructor(
    private readonly lookUp: (pollId: number, voterId: string) => Promise<VoterChoice | undefined>,
    { capacity = 100_000, soleWriter = false }: { capacity?: number; soleWriter?: boolean } = {},
  ) {
    this.#capacity = capacity;
    this.#soleWriter = soleWriter;
  }

  get(pollId: number, voterId: string): VoterChoice | undefined {
    return this.#choices.get(keyOf(pollId, voterId)) ?? undefined;
  }

  /** This voter's choice on the poll: remembered if seen before, else looked up. */
  async of(pollId: number, voterId: string): Promise<VoterChoice | undefined> {
    const key = keyOf(pollId, voterId);
    const remembered = this.#choices.get(key);
    // A held vote may be released (or set aside) by staff on any instance: looked up every time
    // (held votes are few).
    if (remembered !== undefined && !remembered?.held) return remembered ?? undefined;
    const found = await this.lookUp(pollId, voterId);
    if (found) this.remember(pollId, voterId, found.optionIndex, found.votedAt, found.held);
    // Unless the vote was counted while the lookup ran: a choice always wins over its absence.
    else if (this.#soleWriter && !this.#choices.has(key)) this.#set(key, null);
    return found;
  }

  remember(pollId: number, voterId: string, optionIndex: number, votedAt: number, held = false): void {
    this.#set(keyOf(pollId, voterId), held ? { optionIndex, votedAt, held } : { optionIndex, votedAt });
  }

  #set(key: string, value: VoterChoice | null): void {
    // Oldest first in a Map: drop the oldest entry when full.
    if (!this.#choices.has(key) && this.#choices.size >= this.#capacity) {
      const oldest = this.#choices.keys().next();
      if (!oldest.done) this.#choices.delete(oldest.value);
    }
    this.#choices.set(key, value);
  }
}
