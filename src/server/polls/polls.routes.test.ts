import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivePoll, Ballot, PastPoll, PollResults } from '../../shared/api.js';
import { BALLOT_SHOWN_MAX_MS } from '../integrity/ballot.js';
import { seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('polls (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  describe('GET /api/polls/active', () => {
    it('answers 200 with null when there is no active poll', async () => {
      await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-22' });
      const response = await new Visitor(t.app).get('/api/polls/active');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toBeNull();
    });

    it('shows the poll and its total, but withholds the results before voting', async () => {
      const poll = await seedPoll(t.db, {
        question: 'Should cell phones be banned during the school day?',
        description: 'Several states now require it.',
        options: ['Yes, all day', 'Only during class', 'No'],
        votes: [5, 3, 2],
      });

      const response = await new Visitor(t.app).get('/api/polls/active');

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: poll.id,
        pollNumber: 1,
        question: 'Should cell phones be banned during the school day?',
        description: 'Several states now require it.',
        options: ['Yes, all day', 'Only during class', 'No'],
        liveDate: '2026-11-21',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        isActive: true,
        userVoted: false,
        userVoteOption: null,
        totalVotes: 10,
        results: null,
        votingOpen: true,
        closesAt: '2026-11-22T01:00:00.000Z', // 20:00 in New York
        series: null,
        setAsideVotes: null,
        voteHeld: false,
      } satisfies ActivePoll);
      // No ballot: a visitor asks for one on the first intent to vote (GET /api/polls/:id/ballot).
      expect(response.body).not.toContain('ballot');
    });

    it("shows the results, and this browser's choice, after voting", async () => {
      const poll = await seedPoll(t.db, { options: ['A', 'B', 'C'], votes: [3, 1, 0] });
      const visitor = new Visitor(t.app);
      await visitor.vote(poll.id, 1);

      const body = (await visitor.get('/api/polls/active')).json<ActivePoll>();

      expect(body).toMatchObject({ userVoted: true, userVoteOption: 1, totalVotes: 5 });
      expect(body.results).toEqual([
        { option: 'A', votes: 3, percentage: 60 },
        { option: 'B', votes: 2, percentage: 40 },
        { option: 'C', votes: 0, percentage: 0 },
      ]);
    });

    it('shows a returning browser its vote at once, though it read the poll as not voted just before', async () => {
      const poll = await seedPoll(t.db, { options: ['A', 'B'], votes: [1, 1] });
      const visitor = await new Visitor(t.app).holdVoterId(t.db, 'returningBrowser012345');
      for (let i = 0; i < 2; i += 1) {
        expect((await visitor.get('/api/polls/active')).json<ActivePoll>()).toMatchObject({ userVoted: false });
      }
      expect((await visitor.vote(poll.id, 1)).statusCode).toBe(201);

      expect((await visitor.get('/api/polls/active')).json<ActivePoll>()).toMatchObject({
        userVoted: true,
        userVoteOption: 1,
        totalVotes: 3,
      });
    });

    it('shows the results to everyone from the close time on', async () => {
      await seedPoll(t.db, { options: ['A', 'B', 'C'], votes: [1, 1, 1] });
      t.clock.set(newYorkTime('2026-11-21', '19:59'));
      expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>().results).toBeNull();

      t.clock.set(newYorkTime('2026-11-21', '20:00'));
      const body = (await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>();
      expect(body).toMatchObject({ userVoted: false, votingOpen: false });
      expect(body.results?.map((r) => r.percentage)).toEqual([34, 33, 33]);
    });

    it("never shows someone else's vote to a visitor who types their e-mail", async () => {
      const poll = await seedPoll(t.db, { options: ['A', 'B'] });
      const owner = new Visitor(t.app);
      await owner.vote(poll.id, 1);
      await owner.post(`/api/polls/${poll.id}/update-vote`, { email: 'owner@example.org' });

      const snoop = (await new Visitor(t.app).get('/api/polls/active?email=owner%40example.org')).json<ActivePoll>();
      expect(snoop).toMatchObject({ userVoted: false, userVoteOption: null, results: null });

      const own = (await owner.get('/api/polls/active?email=owner%40example.org')).json<ActivePoll>();
      expect(own).toMatchObject({ userVoted: true, userVoteOption: 1 });
    });

    it('ignores an e-mail hint it cannot use: the same answer as without one', async () => {
      const poll = await seedPoll(t.db);
      const voter = new Visitor(t.app);
      await voter.vote(poll.id, 1);
      const plain = await voter.get('/api/polls/active');
      for (const query of [
        'email=not-an-address',
        'email=a%00b%40x.yz',
        'email=a%40x.org&email=b%40y.org',
        'email=%3Cimg%3E%40x.yz',
        'email=',
      ]) {
        const hinted = await voter.get(`/api/polls/active?${query}`);
        expect(hinted.statusCode, query).toBe(200);
        expect(hinted.body, query).toBe(plain.body);
      }
    });
  });

  describe('GET /api/polls/:id/ballot', () => {
    it("hands a ballot for today's open poll, counted from when the page showed the question, never cached", async () => {
      const poll = await seedPoll(t.db, { options: ['A', 'B'] });
      const visitor = new Visitor(t.app);
      const response = await visitor.get(`/api/polls/${poll.id}/ballot?shown=12000`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const ballot = response.json<Ballot>();
      expect(ballot).toEqual({ token: expect.any(String) as string, proofOfWork: false });
      // The vote that carries it reads the page-to-vote time from it: 12 s, as the page said.
      expect(
        (await visitor.post(`/api/polls/${poll.id}/vote`, { optionIndex: 0, ballot: ballot.token })).statusCode,
      ).toBe(201);
      const row = await t.db
        .selectFrom('votes')
        .select('page_ms')
        .where('poll_id', '=', poll.id)
        .executeTakeFirstOrThrow();
      expect(row.page_ms).toBe(12_000);
    });

    it('caps how long the page says it showed the question, and reads anything else as just shown', async () => {
      const poll = await seedPoll(t.db, { options: ['A', 'B'] });
      for (const [shown, pageMs] of [
        ['999999999', BALLOT_SHOWN_MAX_MS],
        ['-5', 0],
        ['abc', 0],
        ['', 0],
      ] as const) {
        const visitor = new Visitor(t.app);
        const { token } = (await visitor.get(`/api/polls/${poll.id}/ballot?shown=${shown}`)).json<Ballot>();
        await visitor.post(`/api/polls/${poll.id}/vote`, { optionIndex: 0, ballot: token });
        const row = await t.db
          .selectFrom('votes')
          .select('page_ms')
          .where('voter_id', '=', visitor.voterId ?? '')
          .executeTakeFirstOrThrow();
        expect({ shown, pageMs: row.page_ms }).toEqual({ shown, pageMs });
      }
    });

    it('refuses a ballot for a poll that is not open for voting, as JSON', async () => {
      const poll = await seedPoll(t.db, { options: ['A', 'B'] });
      const past = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20' });
      for (const id of [past.id, poll.id + 100]) {
        const response = await new Visitor(t.app).get(`/api/polls/${id}/ballot`);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toMatchObject({ message: 'This poll is not open for voting.' });
      }
      t.clock.set(newYorkTime('2026-11-21', '20:00'));
      expect((await new Visitor(t.app).get(`/api/polls/${poll.id}/ballot`)).statusCode).toBe(409);
      expect((await new Visitor(t.app).get('/api/polls/x/ballot')).statusCode).toBe(400);
    });
  });

  describe('GET /api/polls', () => {
    it('lists past polls only, newest first by the day they went live', async () => {
      await seedPoll(t.db, { question: 'Older?', status: 'past', liveDate: '2026-11-18', votes: [2, 1] });
      await seedPoll(t.db, { question: 'Newest past?', status: 'past', liveDate: '2026-11-20' });
      await seedPoll(t.db, { question: 'Middle?', status: 'past', liveDate: '2026-11-19', votes: [0, 0, 4] });
      await seedPoll(t.db, { question: 'Today?', status: 'active' });
      await seedPoll(t.db, { question: 'Tomorrow?', status: 'scheduled', liveDate: '2026-11-22' });

      const response = await new Visitor(t.app).get('/api/polls');

      expect(response.statusCode).toBe(200);
      const polls = response.json<PastPoll[]>();
      expect(polls.map((p) => [p.question, p.liveDate, p.totalVotes, p.isActive])).toEqual([
        ['Newest past?', '2026-11-20', 0, false],
        ['Middle?', '2026-11-19', 4, false],
        ['Older?', '2026-11-18', 3, false],
      ]);
      expect(polls[0]).toHaveProperty('options', ['Yes', 'No', 'Not sure']);
    });

    it('is an empty list before any poll has ended', async () => {
      await seedPoll(t.db);
      expect((await new Visitor(t.app).get('/api/polls')).json()).toEqual([]);
    });
  });

  describe('GET /api/polls/number/:n', () => {
    it('gives the final results of a past poll', async () => {
      await seedPoll(t.db, { status: 'past', liveDate: '2026-11-19' });
      const past = await seedPoll(t.db, {
        question: 'Four-day school week?',
        description: 'Over 900 districts have tried it.',
        options: ['Yes', 'No'],
        status: 'past',
        liveDate: '2026-11-20',
        votes: [1, 2],
      });

      const response = await new Visitor(t.app).get(`/api/polls/number/${past.pollNumber}`);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: past.id,
        pollNumber: 2,
        question: 'Four-day school week?',
        description: 'Over 900 districts have tried it.',
        options: ['Yes', 'No'],
        liveDate: '2026-11-20',
        results: [
          { option: 'Yes', votes: 1, percentage: 33 },
          { option: 'No', votes: 2, percentage: 67 },
        ],
        totalVotes: 3,
        setAsideVotes: 0,
        series: [],
        weighted: { withheld: 'too-few-votes', votesInScope: 0 },
        topics: [],
        note: null,
      } satisfies PollResults);
    });

    it("answers 404 for today's, scheduled and unknown polls, leaking nothing", async () => {
      const active = await seedPoll(t.db, { votes: [1, 0, 0] });
      const scheduled = await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-23' });
      for (const n of [active.pollNumber, scheduled.pollNumber, 99]) {
        const response = await new Visitor(t.app).get(`/api/polls/number/${n}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: 'Poll not found', code: 'not-found' });
      }
    });

    it('answers 400 for a number that is not one, or past what the database can hold', async () => {
      for (const n of ['abc', '0', '-3', '2.5', '1e400', '2147483648']) {
        const response = await new Visitor(t.app).get(`/api/polls/number/${n}`);
        expect(response.statusCode, n).toBe(400);
        expect(response.json().message).toMatch(/poll number/);
      }
    });
  });
});
