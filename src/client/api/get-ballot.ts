/**
 * The ballot a vote carries (shared/api.ts, Ballot), asked for on the first intent to vote: a
 * pointer over the options, a touch, a focus. Reading today's poll carries none, so a first
 * view costs no call beyond what the page needs, and most visits, which never vote, none at
 * all. The request says how long the page has shown the question, so the ballot still tells
 * how long the voter read before voting.
 */
import type { Ballot } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

/**
 * A ballot older than this is asked for again just before the vote goes: a challenge may have
 * begun while the voter read the question.
 */
export const BALLOT_RECHECK_MS = 5_000;

interface Asked {
  pollId: number;
  at: number;
  ballot: Promise<Ballot | null>;
  /** Sent with a vote already: intent asks for no other, and the next vote for a new one. */
  used: boolean;
}

let asked: Asked | null = null;

/** Asks the server for a ballot now; null when none could be had (the vote then goes without one). */
function ask(pollId: number, shownAt: number): Asked {
  const shown = Math.max(0, Math.round(performance.now() - shownAt));
  const ballot = apiRequest<Ballot>(`/api/polls/${pollId}/ballot?shown=${shown}`).catch(() => null);
  return { pollId, at: Date.now(), ballot, used: false };
}

/**
 * The first intent to vote on `pollId`, whose question this page has shown since `shownAt`
 * (performance.now()'s clock): asks for the ballot once, ahead of the vote.
 */
export function ballotOnIntent(pollId: number, shownAt: number): void {
  if (asked?.pollId !== pollId) asked = ask(pollId, shownAt);
}

/**
 * The ballot for the vote being sent: the one asked for on intent while it is fresh, otherwise
 * a new one. Each ballot goes with one vote only.
 */
export function ballotForVote(pollId: number, shownAt: number): Promise<Ballot | null> {
  const fresh =
    asked?.pollId === pollId && !asked.used && Date.now() - asked.at < BALLOT_RECHECK_MS ? asked : ask(pollId, shownAt);
  asked = { ...fresh, used: true };
  return fresh.ballot;
}
