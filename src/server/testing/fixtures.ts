/** Polls and votes put straight into the database, so a test can start from any state. */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.js';
import type { PollStatus } from '../db/tables.js';
import { insertPoll, type PollRecord } from '../polls/polls.repository.js';
import { insertVotes, type NewVote } from '../votes/votes.repository.js';

export interface PollFixture {
  question?: string;
  description?: string | null;
  options?: string[];
  liveDate?: string;
  status?: PollStatus;
  /** Votes per option, cast by random voters on the live date. */
  votes?: number[];
}

export const newVoterId = () => randomBytes(16).toString('base64url');

export async function seedPoll(db: Db, fixture: PollFixture = {}, now = new Date()): Promise<PollRecord> {
  const options = fixture.options ?? ['Yes', 'No', 'Not sure'];
  const liveDate = fixture.liveDate ?? '2026-11-21';
  return db.transaction().execute(async (trx) => {
    const poll = await insertPoll(
      trx,
      {
        question: fixture.question ?? 'Should homework be banned in elementary school?',
        description: fixture.description ?? null,
        options,
        liveDate,
        status: fixture.status ?? 'active',
      },
      now,
    );
    const counts = fixture.votes ?? [];
    const votes: NewVote[] = counts.flatMap((count, optionIndex) =>
      Array.from({ length: count }, () => ({
        pollId: poll.id,
        voterId: newVoterId(),
        optionIndex,
        voterEmail: null,
        votedOn: liveDate,
        createdAt: now.toISOString(),
      })),
    );
    await insertVotes(trx, votes);
    return { ...poll, options: poll.options.map((o, i) => ({ ...o, votes: counts[i] ?? 0 })) };
  });
}
