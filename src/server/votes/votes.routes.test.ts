import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../shared/api.js';
import { newVoterId, seedPoll } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, createTestAppOn, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import type { PollRecord } from '../polls/poll.js';

describe.each(testDatabaseKinds())('voting (%s)', (kind) => {
  let t: TestApp;
  let poll: PollRecord;

  beforeEach(async () => {
    t = await createTestApp(kind);
    poll = await seedPoll(t.db, { options: ['Yes', 'No', 'Not sure'], votes: [3, 1, 0] });
  });
  afterEach(() => t.close());

  const tallies = async (pollId = poll.id) =>
    (
      await t.db
        .selectFrom('poll_options')
        .select('vote_count')
        .where('poll_id', '=', pollId)
        .orderBy('position')
        .execute()
    ).map((row) => row.vote_count);

  const votesOf = (voterId: string) => t.db.selectFrom('votes').selectAll().where('voter_id', '=', voterId).execute();

  /** A 409: the code of the rule that refused, and its sentence (or a pattern the sentence matches). */
  function expectConflict(response: LightMyRequestResponse, code: ErrorCode, message: string | RegExp) {
    expect(response.statusCode).toBe(409);
    if (typeof message === 'string') expect(response.json().message).toBe(message);
    else expect(response.json().message).toMatch(message);
    expect(response.json().code).toBe(code);
  }

  /** A new browser votes, and its vote is counted: the day the vote is dated. */
  async function dayOfANewVote() {
    const visitor = new Visitor(t.app);
    expect((await visitor.vote(poll.id, 0)).statusCode).toBe(201);
    const [vote] = await votesOf(visitor.voterId ?? '');
    return vote?.voted_on;
  }

  describe('POST /api/polls/:id/vote', () => {
    it('counts the vote and gives the browser an anonymous, HttpOnly voter cookie', async () => {
      const visitor = new Visitor(t.app);
      const response = await visitor.vote(poll.id, 1);

      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ message: 'Vote recorded', pollId: poll.id, optionIndex: 1 });
      const cookie = response.cookies.find((c) => c.name === 'voter_id');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      // The id, when it was issued (base 36 ms), and the server's MAC.
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{22}\.[0-9a-z]{8}\.[A-Za-z0-9_-]{22}$/);
      expect(cookie?.maxAge).toBe(400 * 24 * 3600);
      expect(cookie?.secure).toBeFalsy();

      expect(await tallies()).toEqual([3, 2, 0]);
      const [vote] = await votesOf(visitor.voterId ?? '');
      expect(vote).toMatchObject({ poll_id: poll.id, option_index: 1, voter_email: null, voted_on: '2026-11-21' });
    });

    it('gives every new browser its own voter id', async () => {
      const first = new Visitor(t.app);
      const second = new Visitor(t.app);
      await first.vote(poll.id, 0);
      await second.vote(poll.id, 0);
      expect(first.voterId).toBeDefined();
      expect(second.voterId).toBeDefined();
      expect(first.voterId).not.toBe(second.voterId);
      expect(await tallies()).toEqual([5, 1, 0]);
    });

    it('dates the vote by the New York day, not by UTC or the machine clock', async () => {
      // 19:30 in New York is 00:30 UTC and 11:00 in Adelaide, both on the next day.
      t.clock.set(newYorkTime('2026-11-21', '19:30'));
      expect(await dayOfANewVote()).toBe('2026-11-21');
    });

    it('refuses a second vote from the same browser with "already voted", and counts nothing', async () => {
      const visitor = new Visitor(t.app);
      await visitor.vote(poll.id, 0);
      const before = await snapshotDatabase(t.db);

      const again = await visitor.vote(poll.id, 2);

      expectConflict(again, 'already-voted', /already voted/i);
      expect(await snapshotDatabase(t.db)).toEqual(before);
    });

    it('counts exactly one of 20 identical votes sent at once by one voter', async () => {
      const voterId = newVoterId();
      const visitor = await new Visitor(t.app).holdVoterId(t.db, voterId);

      const responses = await Promise.all(Array.from({ length: 20 }, () => visitor.vote(poll.id, 2)));

      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
      expect(await votesOf(voterId)).toHaveLength(1);
      expect(await tallies()).toEqual([3, 1, 1]);
    });

    it('counts one vote per voter when two server instances on one database race', async () => {
      const database = await createTestDatabase(kind);
      const first = await createTestAppOn(database, { keepDatabase: true });
      const second = await createTestAppOn(database);
      try {
        const shared = await seedPoll(first.db, { options: ['A', 'B'] });
        const voterId = newVoterId();
        const browsers = await Promise.all(
          [first, second].map((instance) => new Visitor(instance.app).holdVoterId(first.db, voterId)),
        );
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) => browsers[i % 2]!.vote(shared.id, i % 2)),
        );
        expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
        expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(19);
        const counts = await first.db
          .selectFrom('poll_options')
          .select('vote_count')
          .where('poll_id', '=', shared.id)
          .execute();
        expect(counts.reduce((sum, row) => sum + row.vote_count, 0)).toBe(1);
      } finally {
        await first.close();
        await second.close();
      }
    });

    it('counts every one of 20 votes sent at once by different voters', async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => new Visitor(t.app).vote(poll.id, i % 3)),
      );
      expect(responses.every((r) => r.statusCode === 201)).toBe(true);
      expect(await tallies()).toEqual([3 + 7, 1 + 7, 0 + 6]);
    });

    it('accepts votes until 19:59 and refuses them from 20:00, changing nothing', async () => {
      t.clock.set(newYorkTime('2026-11-21', '19:59:59'));
      expect((await new Visitor(t.app).vote(poll.id, 0)).statusCode).toBe(201);

      t.clock.set(newYorkTime('2026-11-21', '20:00'));
      const before = await snapshotDatabase(t.db);
      const late = await new Visitor(t.app).vote(poll.id, 0);
      expectConflict(late, 'voting-closed', 'Voting has closed for today. Results are live!');
      expect(await snapshotDatabase(t.db)).toEqual(before);
    });

    it('opens again at midnight when no new poll was scheduled', async () => {
      t.clock.set(newYorkTime('2026-11-21', '23:59'));
      expect((await new Visitor(t.app).vote(poll.id, 0)).statusCode).toBe(409);
      t.clock.set(newYorkTime('2026-11-22', '00:00'));
      expect(await dayOfANewVote()).toBe('2026-11-22');
    });

    it('honours a configured close time', async () => {
      await t.close();
      t = await createTestApp(kind, { env: { VOTING_CLOSES_AT: '15:30' }, now: newYorkTime('2026-11-21', '15:30') });
      poll = await seedPoll(t.db);
      expect((await new Visitor(t.app).vote(poll.id, 0)).statusCode).toBe(409);
    });

    it('takes votes at once on a poll that another instance has just made active', async () => {
      // This instance reads the active poll ...
      expect((await new Visitor(t.app).get('/api/polls/active')).json().id).toBe(poll.id);
      // ... then another instance switches to a new poll, straight in the database.
      await t.db.updateTable('polls').set({ status: 'past' }).where('id', '=', poll.id).execute();
      const next = await seedPoll(t.db, { question: 'Next?', liveDate: '2026-11-21' });

      const response = await new Visitor(t.app).vote(next.id, 1);

      expect(response.statusCode).toBe(201);
      expect(await tallies(next.id)).toEqual([0, 1, 0]);
    });

    it('refuses votes on scheduled and past polls', async () => {
      const scheduled = await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-22' });
      const past = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20' });
      for (const closed of [scheduled, past]) {
        const response = await new Visitor(t.app).vote(closed.id, 0);
        expectConflict(response, 'poll-not-open', 'This poll is not open for voting.');
      }
      const count = await t.db
        .selectFrom('votes')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(4);
    });

    it('answers 404 for an unknown poll and 400 for an id that is not one', async () => {
      const unknown = await new Visitor(t.app).vote(poll.id + 100, 0);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: 'Poll not found', code: 'not-found' });
      for (const id of ['abc', '0', '-1', '1.5', '3000000000', '99999999999999999999']) {
        const response = await new Visitor(t.app).post(`/api/polls/${id}/vote`, { optionIndex: 0 });
        expect(response.statusCode, id).toBe(400);
        expect(response.json().message).toMatch(/poll id/);
      }
    });

    it('refuses options that are not on the poll, and wrong types, changing nothing', async () => {
      const before = await snapshotDatabase(t.db);
      const cases: [unknown, RegExp][] = [
        [{ optionIndex: 3 }, /choose one of the poll's options/],
        [{ optionIndex: 6 }, /optionIndex/],
        [{ optionIndex: -1 }, /optionIndex/],
        [{ optionIndex: 1.5 }, /whole number/],
        [{ optionIndex: '1' }, /optionIndex/],
        [{ optionIndex: null }, /optionIndex/],
        [{ optionIndex: [0] }, /optionIndex/],
        [{}, /optionIndex/],
        [{ optionIndex: 0, voterEmail: 'not-an-email' }, /valid email/],
        [{ optionIndex: 0, voterEmail: 42 }, /valid email/],
        [[0], /JSON object/],
        ['"a string"', /JSON object/],
      ];
      for (const [payload, message] of cases) {
        const response = await new Visitor(t.app).request({
          method: 'POST',
          url: `/api/polls/${poll.id}/vote`,
          headers: { 'content-type': 'application/json' },
          payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        });
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().message).toMatch(message);
      }
      expect(await snapshotDatabase(t.db)).toEqual(before);
    });

    it('refuses invalid JSON, oversized, empty and non-JSON bodies with clear messages', async () => {
      const before = await snapshotDatabase(t.db);
      const send = (payload: string, contentType = 'application/json') =>
        new Visitor(t.app).request({
          method: 'POST',
          url: `/api/polls/${poll.id}/vote`,
          headers: { 'content-type': contentType },
          payload,
        });

      const invalid = await send('{"optionIndex": 0');
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json()).toEqual({ message: 'The request body is not valid JSON.', code: 'bad-request' });

      const oversized = await send(JSON.stringify({ optionIndex: 0, voterEmail: 'x'.repeat(20_000) }));
      expect(oversized.statusCode).toBe(413);
      expect(oversized.json()).toEqual({ message: 'The request body is too large.', code: 'bad-request' });

      const empty = await send('');
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toMatch(/empty/);

      const form = await send('optionIndex=0', 'application/x-www-form-urlencoded');
      expect(form.statusCode).toBe(415);
      expect(form.json().message).toMatch(/as JSON/);

      const poisoned = await send('{"optionIndex": 0, "__proto__": {"admin": true}}');
      expect(poisoned.statusCode).toBe(400);

      expect(await snapshotDatabase(t.db)).toEqual(before);
    });

    it('ignores a voter cookie it could not have issued, and issues a real one', async () => {
      const visitor = new Visitor(t.app);
      visitor.cookies.set('voter_id', '../../etc/passwd');
      expect((await visitor.vote(poll.id, 0)).statusCode).toBe(201);
      expect(visitor.voterId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    });

    it('attaches a non-empty voterEmail, trimmed and lowercased, as update-vote would', async () => {
      const visitor = new Visitor(t.app);
      expect((await visitor.vote(poll.id, 0, '  Pat.Teacher@Example.ORG ')).statusCode).toBe(201);
      const [vote] = await votesOf(visitor.voterId ?? '');
      expect(vote?.voter_email).toBe('pat.teacher@example.org');

      const otherBrowser = await new Visitor(t.app).vote(poll.id, 1, 'pat.teacher@example.org');
      expectConflict(otherBrowser, 'email-already-voted', 'This email has already voted on this poll.');
      expect(await tallies()).toEqual([4, 1, 0]);
    });

    it('sets a Secure cookie when the site is served over HTTPS', async () => {
      await t.close();
      t = await createTestApp(kind, { env: { PUBLIC_URL: 'https://hottake.example.org' } });
      poll = await seedPoll(t.db);
      const response = await new Visitor(t.app).vote(poll.id, 0);
      expect(response.cookies.find((c) => c.name === 'voter_id')?.secure).toBe(true);
    });
  });

  describe('POST /api/polls/:id/update-vote', () => {
    it("attaches the e-mail to this browser's vote", async () => {
      const visitor = new Visitor(t.app);
      await visitor.vote(poll.id, 2);
      const response = await visitor.post(`/api/polls/${poll.id}/update-vote`, { email: ' Sam@Example.org ' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Your email is attached to your vote.' });
      const [vote] = await votesOf(visitor.voterId ?? '');
      expect(vote).toMatchObject({ voter_email: 'sam@example.org', option_index: 2 });

      // Saying it twice is fine.
      expect((await visitor.post(`/api/polls/${poll.id}/update-vote`, { email: 'sam@example.org' })).statusCode).toBe(
        200,
      );
    });

    it('keeps the first e-mail on a vote: the same one again is fine, another one is refused', async () => {
      const visitor = new Visitor(t.app);
      await visitor.vote(poll.id, 1);
      expect((await visitor.post(`/api/polls/${poll.id}/update-vote`, { email: 'first@example.org' })).statusCode).toBe(
        200,
      );
      const before = await snapshotDatabase(t.db);
      const changed = await visitor.post(`/api/polls/${poll.id}/update-vote`, { email: 'colleague@example.org' });
      expectConflict(changed, 'email-locked', "Your vote already has an email address, and it can't be changed.");
      expect(await snapshotDatabase(t.db)).toEqual(before);
      expect((await visitor.post(`/api/polls/${poll.id}/update-vote`, { email: 'FIRST@example.org' })).statusCode).toBe(
        200,
      );
    });

    it('lets one browser try at most five e-mails an hour, so nobody can test address after address', async () => {
      const taken = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `${name}@example.org`);
      for (const email of taken) await new Visitor(t.app).vote(poll.id, 0, email);
      const prober = new Visitor(t.app);
      await prober.vote(poll.id, 1);
      const answers = [];
      for (const email of taken)
        answers.push((await prober.post(`/api/polls/${poll.id}/update-vote`, { email })).statusCode);
      expect(answers).toEqual([409, 409, 409, 409, 409, 429]);
      const limited = await prober.post(`/api/polls/${poll.id}/update-vote`, { email: 'free@example.org' });
      expect(limited.json().message).toBe(
        'Too many tries at adding an email to your vote. Please try again in an hour.',
      );
      expect((await votesOf(prober.voterId ?? ''))[0]?.voter_email).toBeNull();

      // Voting with an e-mail is a try too.
      const voter = new Visitor(t.app);
      const tries = [];
      for (const email of taken) tries.push((await voter.vote(poll.id, 2, email)).statusCode);
      expect(tries).toEqual([409, 409, 409, 409, 409, 429]);

      t.clock.advance(3_600_000);
      expect((await prober.post(`/api/polls/${poll.id}/update-vote`, { email: 'free@example.org' })).statusCode).toBe(
        200,
      );
      // Others were never limited by it.
      const other = new Visitor(t.app);
      await other.vote(poll.id, 0);
      expect((await other.post(`/api/polls/${poll.id}/update-vote`, { email: 'other@example.org' })).statusCode).toBe(
        200,
      );
    });

    it('counts e-mail tries per client address too, so a script that drops its cookie before each try gets no further', async () => {
      const limited = await createTestApp(kind, { env: { SUBSCRIBE_LIMIT_PER_HOUR: '3' } });
      try {
        const open = await seedPoll(limited.db, { options: ['Yes', 'No'] });
        const attachFrom = async (remoteAddress: string, email: string) => {
          const browser = new Visitor(limited.app);
          await browser.request({
            method: 'POST',
            url: `/api/polls/${open.id}/vote`,
            remoteAddress,
            payload: { optionIndex: 0, voterEmail: '' },
          });
          const answer = await browser.request({
            method: 'POST',
            url: `/api/polls/${open.id}/update-vote`,
            remoteAddress,
            payload: { email },
          });
          return answer;
        };
        const answers = [];
        for (const name of ['a', 'b', 'c', 'd']) {
          answers.push((await attachFrom('203.0.113.7', `${name}@example.org`)).statusCode);
        }
        expect(answers).toEqual([200, 200, 200, 429]);
        // Every try is counted before the e-mail is looked at: once spent, an address already
        // on a vote is refused exactly as a new one, so the limit tells nobody who voted.
        const known = await attachFrom('203.0.113.7', 'a@example.org');
        const unknown = await attachFrom('203.0.113.7', 'z@example.org');
        expect({ status: known.statusCode, body: known.body }).toEqual({ status: 429, body: unknown.body });
        // A vote that brings an e-mail is a try too: refused whole, nothing stored.
        const before = await snapshotDatabase(limited.db);
        const voting = await new Visitor(limited.app).request({
          method: 'POST',
          url: `/api/polls/${open.id}/vote`,
          remoteAddress: '203.0.113.7',
          payload: { optionIndex: 1, voterEmail: 'e@example.org' },
        });
        expect(voting.statusCode).toBe(429);
        expect(await snapshotDatabase(limited.db)).toEqual(before);
        const attached = await limited.db
          .selectFrom('votes')
          .select('voter_email')
          .where('voter_email', 'is not', null)
          .orderBy('voter_email')
          .execute();
        expect(attached.map((row) => row.voter_email)).toEqual(['a@example.org', 'b@example.org', 'c@example.org']);

        // Another address was never limited by it, and the hour passes.
        expect((await attachFrom('203.0.113.8', 'f@example.org')).statusCode).toBe(200);
        limited.clock.advance(3_600_000);
        expect((await attachFrom('203.0.113.7', 'g@example.org')).statusCode).toBe(200);
      } finally {
        await limited.close();
      }
    });

    it('refuses an e-mail that already voted on this poll from another browser', async () => {
      const first = new Visitor(t.app);
      await first.vote(poll.id, 0);
      await first.post(`/api/polls/${poll.id}/update-vote`, { email: 'sam@example.org' });
      const second = new Visitor(t.app);
      await second.vote(poll.id, 1);
      const before = await snapshotDatabase(t.db);

      const response = await second.post(`/api/polls/${poll.id}/update-vote`, { email: 'SAM@example.org' });

      expectConflict(response, 'email-already-voted', /already voted/i);
      expect(await snapshotDatabase(t.db)).toEqual(before);
    });

    it('answers 404 when this browser has not voted, or the poll does not exist', async () => {
      const stranger = new Visitor(t.app);
      const noCookie = await stranger.post(`/api/polls/${poll.id}/update-vote`, { email: 'a@example.org' });
      expect(noCookie.statusCode).toBe(404);
      expect(noCookie.json().message).toBe('Please vote on this poll before adding your email.');

      await stranger.holdVoterId(t.db, newVoterId());
      expect((await stranger.post(`/api/polls/${poll.id}/update-vote`, { email: 'a@example.org' })).statusCode).toBe(
        404,
      );

      const unknown = await stranger.post(`/api/polls/${poll.id + 50}/update-vote`, { email: 'a@example.org' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('Poll not found');
    });

    it('refuses a missing or malformed e-mail, changing nothing', async () => {
      const visitor = new Visitor(t.app);
      await visitor.vote(poll.id, 0);
      const before = await snapshotDatabase(t.db);
      const cases: [unknown, string][] = [
        [{}, 'The email address must be text.'],
        [{ email: '' }, 'Please enter your email address to subscribe.'],
        [{ email: '   ' }, 'Please enter your email address to subscribe.'],
        [{ email: 'sam@example' }, 'Please enter a valid email address.'],
        [{ email: 'sam @example.org' }, 'Please enter a valid email address.'],
        [{ email: `${'a'.repeat(250)}@example.org` }, 'An email address can be at most 254 characters.'],
        [{ email: ['sam@example.org'] }, 'The email address must be text.'],
      ];
      for (const [payload, message] of cases) {
        const response = await visitor.post(`/api/polls/${poll.id}/update-vote`, payload as object);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().message).toBe(message);
      }
      expect(await snapshotDatabase(t.db)).toEqual(before);
    });
  });
});
