import { describe, expect, it } from 'vitest';
import { votingDayAt } from '../../shared/time.js';
import { newYorkTime, SITE_TIME_ZONE } from '../testing/test-clock.js';
import { activePollAsSeen, sightKey, sightOf, type Visitor } from './active-poll-visibility.js';
import type { PollRecord } from './poll.js';

const poll: PollRecord = {
  id: 7,
  pollNumber: 3,
  question: 'Should homework be banned in elementary school?',
  description: null,
  liveDate: '2026-11-21',
  status: 'active',
  wentLiveAt: '2026-11-21T05:00:00.000Z',
  createdAt: '2026-11-20T15:00:00.000Z',
  options: [
    { label: 'Yes', votes: 3 },
    { label: 'No', votes: 1 },
  ],
  seriesId: null,
  setAsideVotes: 0,
  askedBeforeId: null,
};

const site = { timeZone: SITE_TIME_ZONE, votingClosesAt: { hours: 20, minutes: 0 } };
const beforeClose = votingDayAt(newYorkTime('2026-11-21', '19:59'), site);
const afterClose = votingDayAt(newYorkTime('2026-11-21', '20:00'), site);

const newcomer: Visitor = { ownVote: undefined };
const voter: Visitor = { ownVote: { optionIndex: 1 } };
const seenBy = (visitor: Visitor, day = beforeClose) => activePollAsSeen(poll, sightOf(visitor, day));

describe('what a visitor sees of the active poll', () => {
  it('withholds the results before voting and before the close time, but not the total', () => {
    expect(seenBy(newcomer)).toEqual({
      id: 7,
      pollNumber: 3,
      question: 'Should homework be banned in elementary school?',
      description: null,
      options: ['Yes', 'No'],
      liveDate: '2026-11-21',
      createdAt: '2026-11-20T15:00:00.000Z',
      isActive: true,
      userVoted: false,
      userVoteOption: null,
      totalVotes: 4,
      results: null,
      votingOpen: true,
      closesAt: '2026-11-22T01:00:00.000Z',
      series: null,
      // Not published while voting is open (issue 37 item 6).
      setAsideVotes: null,
      voteHeld: false,
    });
  });

  it('shows a voter whose vote is held no results while voting is open, and none marked as theirs after', () => {
    const held: Visitor = { ownVote: { optionIndex: 1, held: true } };
    expect(seenBy(held)).toMatchObject({ userVoted: true, voteHeld: true, userVoteOption: null, results: null });
    expect(seenBy(held, afterClose)).toMatchObject({ voteHeld: true, userVoteOption: null, results: [{}, {}] });
    expect(sightKey(sightOf(held, beforeClose))).not.toBe(sightKey(sightOf(voter, beforeClose)));
    expect(seenBy(voter, afterClose).setAsideVotes).toBe(poll.setAsideVotes);
  });

  it('shows the earlier runs of a question asked again with the results, never before them', () => {
    const runs = [{ pollNumber: 1, liveDate: '2026-09-01', totalVotes: 10, results: [] }];
    expect(activePollAsSeen(poll, sightOf(newcomer, beforeClose), runs).series).toBeNull();
    expect(activePollAsSeen(poll, sightOf(voter, beforeClose), runs).series).toEqual(runs);
    expect(activePollAsSeen(poll, sightOf(newcomer, afterClose), runs).series).toEqual(runs);
    expect(activePollAsSeen(poll, sightOf(voter, beforeClose)).series).toEqual([]);
  });

  it('shows a voter their own choice and the results', () => {
    expect(seenBy(voter)).toMatchObject({
      userVoted: true,
      userVoteOption: 1,
      results: [
        { option: 'Yes', votes: 3, percentage: 75 },
        { option: 'No', votes: 1, percentage: 25 },
      ],
      votingOpen: true,
    });
  });

  it('shows the results to everyone from the close time on', () => {
    expect(seenBy(newcomer, afterClose)).toMatchObject({ userVoted: false, userVoteOption: null, votingOpen: false });
    expect(seenBy(newcomer, afterClose).results).toEqual(seenBy(voter).results);
  });

  it('never lets an e-mail hint widen what a visitor sees', () => {
    for (const visitor of [newcomer, voter]) {
      for (const emailHint of ['owner@example.org', undefined]) {
        expect(sightOf({ ...visitor, emailHint }, beforeClose)).toEqual(sightOf(visitor, beforeClose));
      }
    }
  });

  it('gives visitors the same key exactly when they see the same answer', () => {
    const tomorrow = votingDayAt(newYorkTime('2026-11-22', '10:00'), site);
    const sights = [newcomer, voter, { ownVote: { optionIndex: 0 } }].flatMap((visitor) =>
      [beforeClose, afterClose, tomorrow].map((day) => sightOf(visitor, day)),
    );
    for (const a of sights) {
      for (const b of sights) {
        const sameAnswer = JSON.stringify(activePollAsSeen(poll, a)) === JSON.stringify(activePollAsSeen(poll, b));
        expect(sightKey(a) === sightKey(b)).toBe(sameAnswer);
      }
    }
  });
});
