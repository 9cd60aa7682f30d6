/**
 * Who may see a poll's breakdown, and when, and what it says. Never while votes can still
 * arrive: someone watching a live breakdown could see a colleague's vote land in their small
 * group. So a past poll's breakdown is open, today's opens at the close time, and a scheduled
 * one does not exist.
 *
 * Published once (issue 34, items 13 and 14): the first time a closed poll's breakdown is asked
 * for, or before staff change its votes after the close, whichever comes first, it is worked
 * out from the group tallies (the groups shown, their weighted lines), rounded (rounding.ts)
 * and kept in poll_breakdowns; from then on every reader gets that row, one read by key,
 * whatever the number of votes. Whichever instance publishes first, the others read what it
 * wrote. A release or a discount after the close moves everyone's result, never a group: the
 * breakdown says so in a note instead (`correction`).
 */
import type { Breakdown, BreakdownDimension } from '../../shared/api.js';
import { BREAKDOWN_ROUNDING_BASE, MIN_GROUP_SIZE } from '../../shared/profile.js';
import { votesText } from '../../shared/results.js';
import { localDateAt, votingDayAt } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import { totalVotes, type PollRecord } from '../polls/poll.js';
import { findPollById } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { createWeightingService } from '../weighting/weighted.service.js';
import { buildBreakdown, publishBreakdown, suppressWeightedSecondary } from './breakdown.js';
import { groupTallies, publishedBreakdowns, publishOnce, type PublishedRow } from './breakdowns.repository.js';
import { roundingDraw } from './rounding-draw.js';

export type BreakdownOutcome = { outcome: 'shown'; json: string } | { outcome: 'not-found' | 'not-yet' };

/** How many polls' breakdown answers are kept as text (a few KB each); the oldest kept goes first. */
const KEPT_ANSWERS = 500;

/** The note a breakdown carries once staff changed the poll's votes after it was published. */
export function correctionNote(poll: PollRecord, published: Pick<PublishedRow, 'totalVotes' | 'setAsideVotes'>) {
  const now = totalVotes(poll);
  if (now === published.totalVotes && poll.setAsideVotes === published.setAsideVotes) return null;
  return (
    `Votes were reviewed after voting closed: the result for everyone now counts ${votesText(now)}. ` +
    'The groups stay as they were published at the close, so that no change can be traced to a group.'
  );
}

export function createBreakdownsService({ db, clock, site }: Pick<ServiceDeps, 'db' | 'clock' | 'site'>) {
  /** Whether voting on `poll` is over for now, and the site date of the close its breakdown shows. */
  function closeOf(poll: PollRecord): { over: boolean; closedOn: string } {
    const now = clock.now();
    const over = poll.status === 'past' || (poll.status === 'active' && !votingDayAt(now, site).votingOpen);
    return { over, closedOn: localDateAt(now, site.timeZone) };
  }

  /** Whether `row` is the breakdown of the poll's latest close (a poll left active may close again). */
  const current = (poll: PollRecord, row: PublishedRow | undefined, closedOn: string): row is PublishedRow =>
    row !== undefined && (poll.status === 'past' || row.closedOn >= closedOn);

  /** Works out, rounds and keeps a closed poll's breakdown, unless another instance did first. */
  async function publish(on: Db, poll: PollRecord, closedOn: string): Promise<PublishedRow> {
    const { dimensions } = buildBreakdown(poll, await groupTallies(on, poll.id));
    const weighting = createWeightingService({ db: on, clock });
    const weighted = suppressWeightedSecondary(
      await weighting.ofGroups(poll, dimensions),
      await weighting.ofPoll(poll),
    );
    return publishOnce(on, {
      pollId: poll.id,
      closedOn,
      totalVotes: totalVotes(poll),
      setAsideVotes: poll.setAsideVotes,
      dimensions: JSON.stringify(publishBreakdown(weighted, roundingDraw)),
      publishedAt: clock.now().toISOString(),
    });
  }

  /** The published breakdowns of closed polls, publishing those not yet published. */
  async function publishedOf(on: Db, polls: readonly PollRecord[]): Promise<Map<number, PublishedRow>> {
    const rows = await publishedBreakdowns(
      on,
      polls.map((poll) => poll.id),
    );
    for (const poll of polls) {
      const { closedOn } = closeOf(poll);
      const row = rows.get(poll.id);
      if (!current(poll, row, closedOn)) rows.set(poll.id, await publish(on, poll, closedOn));
    }
    return rows;
  }

  function toBreakdown(poll: PollRecord, row: PublishedRow): Breakdown {
    return {
      pollId: poll.id,
      pollNumber: poll.pollNumber,
      totalVotes: row.totalVotes,
      setAsideVotes: row.setAsideVotes,
      minGroupSize: MIN_GROUP_SIZE,
      roundedTo: BREAKDOWN_ROUNDING_BASE,
      correction: correctionNote(poll, row),
      dimensions: JSON.parse(row.dimensions) as BreakdownDimension[],
    };
  }

  /**
   * Each poll's answer as last written, with what it was written from: a published row never
   * changes, so the answer changes only with a new close or with the poll's counts (the
   * correction note). A read then costs the poll's row and its published row, whatever the
   * number of votes or of groups shown (a 1M-vote poll shows more groups than a 1k-vote one,
   * and parsing and writing them again per read made its reads slower: docs/performance.md).
   */
  const answers = new Map<number, { from: string; json: string }>();
  function answerText(poll: PollRecord, row: PublishedRow): string {
    const from = `${poll.pollNumber}|${row.closedOn}|${row.publishedAt}|${totalVotes(poll)}|${poll.setAsideVotes}`;
    const kept = answers.get(poll.id);
    if (kept?.from === from) return kept.json;
    const json = JSON.stringify(toBreakdown(poll, row));
    answers.delete(poll.id);
    answers.set(poll.id, { from, json });
    if (answers.size > KEPT_ANSWERS) answers.delete(answers.keys().next().value as number);
    return json;
  }

  async function shownRow(pollId: number) {
    const poll = await findPollById(db, pollId);
    if (!poll || poll.status === 'scheduled') return { outcome: 'not-found' } as const;
    if (!closeOf(poll).over) return { outcome: 'not-yet' } as const;
    const row = (await publishedOf(db, [poll])).get(poll.id);
    if (!row) throw new Error(`poll ${poll.id} has no breakdown`);
    return { outcome: 'shown', poll, row } as const;
  }

  return {
    /** A closed poll's breakdown as the API's JSON text, written once per published breakdown and count. */
    async breakdown(pollId: number): Promise<BreakdownOutcome> {
      const shown = await shownRow(pollId);
      return shown.outcome === 'shown' ? { outcome: 'shown', json: answerText(shown.poll, shown.row) } : shown;
    },

    /** The published dimensions of these past polls (the open data), publishing those not yet published. */
    async dimensionsOf(polls: readonly PollRecord[]): Promise<Map<number, BreakdownDimension[]>> {
      const rows = await publishedOf(db, polls);
      return new Map([...rows].map(([id, row]) => [id, JSON.parse(row.dimensions) as BreakdownDimension[]]));
    },

    /**
     * Called by a staff change to a poll's votes, in its transaction and before it: when voting
     * on the poll is over, what was to be published at the close is published first, so the
     * change moves everyone's result and no group.
     */
    async publishBeforeChange(trx: Db, pollId: number): Promise<void> {
      const poll = await findPollById(trx, pollId);
      if (!poll || poll.status === 'scheduled' || !closeOf(poll).over) return;
      await publishedOf(trx, [poll]);
    },
  };
}

export type BreakdownsService = ReturnType<typeof createBreakdownsService>;
