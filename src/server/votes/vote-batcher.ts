/**
 * Group commit: the votes that arrive together are written together, in one transaction,
 * and each request is answered when its batch has committed. A vote waits for the next tick
 * at least, and at most `maxWaitMs` behind batches still being written.
 *
 * A batch never holds two votes of one voter on a poll, nor two votes with one e-mail on a
 * poll: the later one waits for the next batch, so it meets the first one as a row already
 * written and is refused exactly as it would be alone.
 */
import type { BatchResult, InsertOutcome, NewVote } from './votes.repository.js';

export interface BatchSettings {
  /** The most votes in one batch. */
  maxBatch: number;
  /** How many batches may be written at once (the site writes one: votes.service.ts). */
  maxInFlight: number;
  /** A vote waiting behind batches under way starts its own batch after this long. */
  maxWaitMs: number;
}

interface Pending {
  vote: NewVote;
  resolve: (outcome: InsertOutcome) => void;
  reject: (error: unknown) => void;
}

export class VoteBatcher {
  readonly #write: (votes: NewVote[]) => Promise<BatchResult[]>;
  readonly #settings: BatchSettings;
  #queue: Pending[] = [];
  #inFlight = 0;
  #tickScheduled = false;
  #timer: NodeJS.Timeout | undefined;
  #idle: (() => void)[] = [];

  constructor(write: (votes: NewVote[]) => Promise<BatchResult[]>, settings: BatchSettings) {
    this.#write = write;
    this.#settings = settings;
  }

  /** Resolves with the vote's outcome once its batch has committed. */
  add(vote: NewVote): Promise<InsertOutcome> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ vote, resolve, reject });
      if (!this.#tickScheduled) {
        this.#tickScheduled = true;
        setImmediate(() => {
          this.#tickScheduled = false;
          this.#flush(false);
        });
      }
    });
  }

  /** Resolves when every vote added so far has been written. */
  drained(): Promise<void> {
    if (this.#queue.length === 0 && this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #flush(overdue: boolean) {
    let force = overdue;
    while (this.#queue.length > 0 && (this.#inFlight < this.#settings.maxInFlight || force)) {
      force = false;
      this.#start(this.#takeBatch());
    }
    if (this.#queue.length > 0 && this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#flush(true);
      }, this.#settings.maxWaitMs);
    }
  }

  /** The oldest votes, up to maxBatch, one at most per voter and per e-mail on a poll. */
  #takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const keys = new Set<string>();
    for (const pending of this.#queue) {
      const { pollId, voterId, voterEmail } = pending.vote;
      const voterKey = `${pollId} v ${voterId}`;
      const emailKey = voterEmail === null ? null : `${pollId} e ${voterEmail}`;
      if (batch.length >= this.#settings.maxBatch || keys.has(voterKey) || (emailKey && keys.has(emailKey))) {
        rest.push(pending);
        continue;
      }
      keys.add(voterKey);
      if (emailKey) keys.add(emailKey);
      batch.push(pending);
    }
    this.#queue = rest;
    return batch;
  }

  #start(batch: Pending[]) {
    this.#inFlight += 1;
    this.#write(batch.map((pending) => pending.vote))
      .then(
        (results) =>
          batch.forEach((pending, i) => {
            const result = results[i];
            if (result && 'outcome' in result) pending.resolve(result.outcome);
            else pending.reject(result?.error ?? new Error('the vote batch gave no result for this vote'));
          }),
        (error: unknown) => batch.forEach((pending) => pending.reject(error)),
      )
      .finally(() => {
        this.#inFlight -= 1;
        if (this.#queue.length > 0) {
          clearTimeout(this.#timer);
          this.#timer = undefined;
          this.#flush(false);
        } else if (this.#inFlight === 0) {
          for (const resolve of this.#idle.splice(0)) resolve();
        }
      });
  }
}
